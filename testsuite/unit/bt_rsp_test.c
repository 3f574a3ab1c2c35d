/* The remote-protocol client against a scripted stub: acks and
   checksums, escapes and repeats in replies, qXfer chunks, vFile reads,
   and the errors.  */
#define _GNU_SOURCE
#include "btrace/bt_rsp.h"
#include "testsuite/btrace/bt_fake_stub.h"

#include <criterion/criterion.h>

static const struct bt_fake_reply script[] = {
	{ "?", "T05thread:p10.11;" },
	/* "a}b#c" escaped, then "x" and 3 more ('*', then ' ' is 29 + 3).  */
	{ "qEsc", "a}]b}\x03" "c x* " },
	{ "qXfer:features:read:x.xml:0,fff", "m<a>" },
	{ "qXfer:features:read:x.xml:3,fff", "l</a>" },
	{ "qXfer:features:read:none:0,fff", "E01" },
	{ "vFile:open:2f74,0,0", "F5" },
	{ "vFile:pread:5,fff,0", "F3;ab}]" },
	{ "vFile:pread:5,fff,3", "F0;" },
	{ "vFile:close:5", "F0" },
	{ NULL, NULL },
};

static struct bt_rsp *connect_to(struct bt_fake_stub *stub, int bad)
{
	struct bt_rsp *rsp;
	struct bt_diag diag;

	cr_assert_eq(bt_fake_start(stub, script, bad), 0);
	cr_assert_eq(bt_rsp_open(&rsp, stub->hostport, &diag), 0, "%s",
		     diag.text);
	return rsp;
}

Test(bt_rsp, replies_are_unescaped_and_expanded)
{
	struct bt_fake_stub stub;
	struct bt_rsp *rsp = connect_to(&stub, 0);
	struct bt_diag diag;
	const char *reply;
	size_t len;

	cr_assert_eq(bt_rsp_request(rsp, "?", &reply, &len, &diag), 0);
	cr_assert_str_eq(reply, "T05thread:p10.11;");
	cr_assert_eq(bt_rsp_request(rsp, "qEsc", &reply, &len, &diag), 0);
	cr_assert_eq(len, 10);
	cr_assert_str_eq(reply, "a}b#c xxxx");
	/* Unknown requests get the empty reply.  */
	cr_assert_eq(bt_rsp_request(rsp, "qNothing", &reply, &len, &diag), 0);
	cr_assert_eq(len, 0);
	bt_rsp_close(rsp);
	bt_fake_stop(&stub);
}

Test(bt_rsp, qxfer_and_vfile_reads_gather_chunks)
{
	struct bt_fake_stub stub;
	struct bt_rsp *rsp = connect_to(&stub, 0);
	struct bt_diag diag;
	char *data;
	size_t size;

	cr_assert_eq(bt_rsp_qxfer(rsp, "features", "x.xml", &data, &size,
				  &diag), 0, "%s", diag.text);
	cr_assert_eq(size, 7);
	cr_assert_str_eq(data, "<a></a>");
	free(data);
	cr_assert_eq(bt_rsp_qxfer(rsp, "features", "none", &data, &size,
				  &diag), -bte_notfound);
	cr_assert(strstr(diag.text, "E01") != NULL, "%s", diag.text);

	cr_assert_eq(bt_rsp_read_file(rsp, "/t", &data, &size, &diag), 0,
		     "%s", diag.text);
	cr_assert_eq(size, 3);
	cr_assert_str_eq(data, "ab}");
	free(data);
	cr_assert_lt(bt_rsp_read_file(rsp, "/u", &data, &size, &diag), 0);
	bt_rsp_close(rsp);
	bt_fake_stop(&stub);
}

/* A stub with a packet size and no-ack mode: qXfer asks for a packet's
   worth (0x1ffff for 0x20000), and the client no longer acks.  */
static const struct bt_fake_reply noack_script[] = {
	{ "qSupported", "PacketSize=20000;QStartNoAckMode+" },
	{ "QStartNoAckMode", "OK" },
	{ "qXfer:features:read:x.xml:0,1ffff", "l<big/>" },
	{ NULL, NULL },
};

Test(bt_rsp, packet_size_and_no_ack_mode)
{
	struct bt_fake_stub stub;
	struct bt_rsp *rsp;
	struct bt_diag diag;
	char *data;
	size_t size;

	cr_assert_eq(bt_fake_start(&stub, noack_script, 0), 0);
	cr_assert_eq(bt_rsp_open(&rsp, stub.hostport, &diag), 0, "%s",
		     diag.text);
	cr_assert_eq(bt_rsp_qxfer(rsp, "features", "x.xml", &data, &size,
				  &diag), 0, "%s", diag.text);
	cr_assert_str_eq(data, "<big/>");
	free(data);
	bt_rsp_close(rsp);
	bt_fake_stop(&stub);
}

Test(bt_rsp, a_bad_checksum_is_an_error)
{
	struct bt_fake_stub stub;
	struct bt_rsp *rsp = connect_to(&stub, 1);
	struct bt_diag diag;
	const char *reply;

	cr_assert_lt(bt_rsp_request(rsp, "?", &reply, NULL, &diag), 0);
	bt_rsp_close(rsp);
	bt_fake_stop(&stub);
}

Test(bt_rsp, bad_addresses)
{
	struct bt_rsp *rsp;
	struct bt_diag diag;

	cr_assert_eq(bt_rsp_open(&rsp, "nocolon", &diag), -bte_invalid);
	cr_assert_eq(bt_rsp_open(&rsp, "127.0.0.1:", &diag), -bte_invalid);
	cr_assert_eq(bt_rsp_open(&rsp, "127.0.0.1:1", &diag), -bte_io);
	cr_assert(strstr(diag.text, "cannot connect") != NULL);
}
