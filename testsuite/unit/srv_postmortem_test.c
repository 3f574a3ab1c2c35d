/* The post-mortem session's packets on a bundle built here: the stop
   reply names the crashed thread and its signal, registers and memory
   come from the core (else the mapped file), btrace serves the saved
   trace once, and whatever would run the process is refused.  */
#include "server/srv_postmortem.h"
#include "nat/amd64_regs_image.h"
#include "btrace/ptbtrace.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const uint8_t pt[] = { 0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02,
			      0x82, 0x02, 0x23 };
static const uint8_t stack[] = { 0xde, 0xad, 0xbe, 0xef };
static char file[64], mapped[64];

static void build(int with_core)
{
	struct amd64_regs *r = malloc(sizeof(*r));
	struct bt_bundle b = { 0 };
	struct bt_thread threads[2] = {
		{ 300, 1, 0x401000, pt, sizeof(pt), 0 },
		{ 301, 1, 0x402000, pt, sizeof(pt), 0 },
	};
	struct bt_core_thread core[2];
	struct bt_pages mem = { 0x7ff000, sizeof(stack), 3, "[stack]", stack };
	struct bt_mapping map = { 0x500000, 0x1000, 0x10, 5, mapped, NULL, 0 };
	uint8_t *img[2];
	size_t size;
	FILE *f;

	snprintf(mapped, sizeof(mapped), "/tmp/srv_pm_map_%d", (int) getpid());
	f = fopen(mapped, "w");
	fputs("0123456789abcdefHELLO", f);
	fclose(f);
	for (int i = 0; i < 2; i++) {
		amd64_regs_init(r);
		r->gpr.rax = 0x1000 + (uint64_t) i;
		r->gpr.rip = i ? 0x402000 : 0x401000;
		r->xcr0 = 3;
		r->has_xstate = true;
		r->xsave_len = 1024;
		xstate_layout_init(&r->layout, 3);
		r->valid = true;
		size = amd64_regs_image_size(r);
		img[i] = malloc(size);
		amd64_regs_image_write(r, img[i], size);
		core[i] = (struct bt_core_thread) { 300 + i, i ? 11 : 0,
						    img[i], size };
	}
	b.format = btf_pt;
	b.buffer_size = 8192;
	b.pid = 300;
	b.threads = threads;
	b.nthreads = 2;
	b.trigger = (struct bt_trigger) { btt_signal, 301, 11, 0, 0, "" };
	b.exe = "/usr/bin/crashed";
	b.core_threads = core;
	b.ncore_threads = with_core ? 2 : 0;
	b.core_pages = &mem;
	b.ncore_pages = 1;
	b.mappings = &map;
	b.nmappings = 1;
	snprintf(file, sizeof(file), "/tmp/srv_pm_%d.ptb", (int) getpid());
	cr_assert_eq(bt_bundle_write_file(&b, file), 0);
	free(img[0]);
	free(img[1]);
	free(r);
}

static const char *ask(struct srv_pm *pm, const char *pkt)
{
	cr_assert_gt(srv_pm_dispatch(pm, pkt, strlen(pkt)), 0, "%s", pkt);
	ps_buf_putc(&pm->reply, 0);
	pm->reply.len--;
	return pm->reply.data;
}

static void done(struct srv_pm *pm)
{
	srv_pm_fini(pm);
	unlink(file);
	unlink(mapped);
}

Test(srv_postmortem, the_image_is_a_stopped_process)
{
	struct srv_pm pm;

	build(1);
	cr_assert_eq(srv_pm_init(&pm, file), 0);
	cr_assert_str_eq(ask(&pm, "?"), "T0bthread:12d;");
	cr_assert_str_eq(ask(&pm, "qfThreadInfo"), "m12c,12d");
	cr_assert_str_eq(ask(&pm, "qC"), "QC12d");
	/* rax of the crashed thread, then of the other one.  */
	cr_assert_eq(strncmp(ask(&pm, "g"), "0110000000000000", 16), 0);
	cr_assert_str_eq(ask(&pm, "Hg12c"), "OK");
	cr_assert_str_eq(ask(&pm, "p0"), "0010000000000000");
	cr_assert_str_eq(ask(&pm, "m7ff000,4"), "deadbeef");
	/* Past the core's page: nothing.  */
	cr_assert_str_eq(ask(&pm, "m7ff002,8"), "beef");
	/* From the mapped file, at its offset.  */
	cr_assert_str_eq(ask(&pm, "m500000,5"), "48454c4c4f");
	cr_assert_str_eq(ask(&pm, "m900000,4"), "E01");
	cr_assert_str_eq(ask(&pm, "qXfer:exec-file:read::0,100"),
			 "l/usr/bin/crashed");
	done(&pm);
}

Test(srv_postmortem, btrace_serves_the_saved_trace)
{
	struct srv_pm pm;

	build(1);
	cr_assert_eq(srv_pm_init(&pm, file), 0);
	cr_assert_str_eq(ask(&pm, "qXfer:btrace:read:all:0,1000"),
			 "E.Btrace not enabled.");
	cr_assert_eq(strncmp(ask(&pm, "Qbtrace:bts"), "E.", 2), 0);
	cr_assert_str_eq(ask(&pm, "Qbtrace:pt"), "OK");
	cr_assert_str_eq(ask(&pm, "Qbtrace:pt"), "E.Btrace already enabled.");
	cr_assert_not_null(strstr(ask(&pm, "qXfer:btrace-conf:read::0,1000"),
				  "size=\"0x2000\""));
	cr_assert_not_null(strstr(ask(&pm, "qXfer:btrace:read:all:0,1000"),
				  "<raw>\n0282028202820282"));
	cr_assert_eq(strncmp(ask(&pm, "qXfer:btrace:read:delta:0,1000"),
			     "E.", 2), 0);
	/* It never runs: after a read there is nothing new.  */
	cr_assert_null(strstr(ask(&pm, "qXfer:btrace:read:new:0,1000"),
			      "<raw>"));
	cr_assert_str_eq(ask(&pm, "Qbtrace:off"), "OK");
	done(&pm);
}

Test(srv_postmortem, running_it_is_refused)
{
	static const char *const runs[] = {
		"vCont;c", "vCont;s:12d", "c", "s", "C0b", "Z2,7ff000,4",
		"M7ff000,1:00", "G00", "P0=00", "vRun;2f62696e",
	};
	struct srv_pm pm;

	build(1);
	cr_assert_eq(srv_pm_init(&pm, file), 0);
	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++)
		cr_assert_str_eq(ask(&pm, runs[i]),
				 "E.the process is a post-mortem image", "%s",
				 runs[i]);
	/* Breakpoints are GDB's business while it replays.  */
	cr_assert_str_eq(ask(&pm, "Z0,401000,1"), "OK");
	cr_assert_str_eq(ask(&pm, "z0,401000,1"), "OK");
	cr_assert_str_eq(ask(&pm, "vKill;12c"), "OK");
	cr_assert(pm.done);
	done(&pm);
}

Test(srv_postmortem, a_bundle_without_core_is_refused)
{
	struct srv_pm pm;

	build(0);
	cr_assert_lt(srv_pm_init(&pm, file), 0);
	srv_pm_fini(&pm);
	unlink(file);
	unlink(mapped);
}
