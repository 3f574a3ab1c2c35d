/* server/srv_osdata.c: the osdata object's XML, as gdbserver writes it,
   and over the wire through qXfer.  */
#include "testsuite/unit/srv_fixture.h"
#include "server/srv_osdata.h"

#include <pwd.h>

TestSuite(srv_osdata, .init = srv_fx_setup, .fini = srv_fx_teardown,
	  .timeout = SRV_FX_TIMEOUT);

static struct ps_buf xml;

static const char *osdata(const char *type)
{
	ps_buf_fini(&xml);
	ps_buf_init(&xml);
	cr_assert_eq(srv_osdata_xml(type, &xml), 0, "type '%s'", type);
	return xml.data ? xml.data : "";
}

/* gdbserver's ten types, in its order and words.  */
Test(srv_osdata, types)
{
	static const char *const rows[][3] = {
		{ "cpus", "Listing of all cpus/cores on the system", "CPUs" },
		{ "files", "Listing of all file descriptors", "File descriptors" },
		{ "modules", "Listing of all loaded kernel modules",
		  "Kernel modules" },
		{ "msg", "Listing of all message queues", "Message queues" },
		{ "processes", "Listing of all processes", "Processes" },
		{ "procgroups", "Listing of all process groups",
		  "Process groups" },
		{ "semaphores", "Listing of all semaphores", "Semaphores" },
		{ "shm", "Listing of all shared-memory regions",
		  "Shared-memory regions" },
		{ "sockets", "Listing of all internet-domain sockets", "Sockets" },
		{ "threads", "Listing of all threads", "Threads" },
	};
	struct ps_buf want;

	ps_buf_init(&want);
	ps_buf_puts(&want, "<osdata type=\"types\">\n");
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		ps_buf_printf(&want, "<item><column name=\"Type\">%s</column>"
			      "<column name=\"Description\">%s</column>"
			      "<column name=\"Title\">%s</column></item>",
			      rows[i][0], rows[i][1], rows[i][2]);
	ps_buf_puts(&want, "</osdata>\n");
	cr_assert_str_eq(osdata(""), want.data);
	cr_assert_str_eq(osdata("types"), want.data);
	/* Unknown: an empty object, as gdbserver answers.  */
	cr_assert_str_eq(osdata("nosuchtype"), "");
	ps_buf_fini(&want);
	ps_buf_fini(&xml);
}

/* Every listing is one well-formed <osdata> object of its own type.  */
Test(srv_osdata, every_type_is_an_object)
{
	static const char *const types[][2] = {
		{ "cpus", "cpus" }, { "files", "files" },
		{ "modules", "modules" }, { "msg", "message queues" },
		{ "semaphores", "semaphores" }, { "shm", "shared memory" },
		{ "sockets", "I sockets" },
	};

	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		char head[64];
		const char *text = osdata(types[i][0]);
		size_t n = strlen(text);

		snprintf(head, sizeof(head), "<osdata type=\"%s\">\n",
			 types[i][1]);
		cr_assert(!strncmp(text, head, strlen(head)), "%s: %.60s",
			  types[i][0], text);
		cr_assert(n >= 10 && !strcmp(text + n - 10, "</osdata>\n"),
			  "%s", types[i][0]);
	}
	/* This machine has CPUs, and we have open files.  */
	cr_assert_not_null(strstr(osdata("cpus"),
				  "<item><column name=\"processor\">"));
	{
		char row[128];

		snprintf(row, sizeof(row), "<item><column name=\"pid\">%d"
			 "</column>", (int) getpid());
		cr_assert_not_null(strstr(osdata("files"), row));
	}
	ps_buf_fini(&xml);
}

/* Our own row, built from what we know about ourselves.  */
Test(srv_osdata, processes_lists_us)
{
	struct passwd *pw = getpwuid(getuid());
	char row[512];
	const char *text = osdata("processes"), *at;

	cr_assert(!strncmp(text, "<osdata type=\"processes\">\n", 26), "%.80s",
		  text);
	cr_assert(!strcmp(text + strlen(text) - 10, "</osdata>\n"));
	snprintf(row, sizeof(row), "<item><column name=\"pid\">%d</column>"
		 "<column name=\"user\">%s</column><column name=\"command\">",
		 (int) getpid(), pw ? pw->pw_name : "");
	at = strstr(text, row);
	cr_assert_not_null(at, "no row for %d", (int) getpid());
	cr_assert_not_null(strstr(at, "</column><column name=\"cores\">"));
	ps_buf_fini(&xml);
}

Test(srv_osdata, procgroups_and_threads_list_us)
{
	char row[256];
	const char *text;

	text = osdata("procgroups");
	cr_assert(!strncmp(text, "<osdata type=\"process groups\">\n", 31));
	snprintf(row, sizeof(row), "<column name=\"pgid\">%d</column>",
		 (int) getpgrp());
	cr_assert_not_null(strstr(text, row), "%s", row);
	text = osdata("threads");
	cr_assert(!strncmp(text, "<osdata type=\"threads\">\n", 24));
	snprintf(row, sizeof(row), "<column name=\"tid\">%d</column>"
		 "<column name=\"core\">", (int) getpid());
	cr_assert_not_null(strstr(text, row), "%s", row);
	ps_buf_fini(&xml);
}

/* Over the wire: advertised, and served without any process.  */
Test(srv_osdata, qxfer_without_a_process)
{
	const char *r;

	r = srv_fx_req("qSupported:multiprocess+");
	cr_assert_not_null(strstr(r, ";qXfer:osdata:read+"), "%s", r);
	cr_assert_null(nat_first_process(&fx.target));
	r = srv_fx_req("qXfer:osdata:read::0,1000");
	cr_assert(!strncmp(r, "l<osdata type=\"types\">", 22), "%s", r);
	r = srv_fx_req("qXfer:osdata:read:processes:0,14");
	cr_assert_str_eq(r, "m<osdata type=\"proces");
	r = srv_fx_req("qXfer:osdata:read:nosuchtype:0,100");
	cr_assert_str_eq(r, "l");
}
