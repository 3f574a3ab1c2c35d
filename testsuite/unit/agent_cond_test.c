#include "server/agent_cond.h"
#include "common/ps_error.h"
#include "testsuite/unit/agent_fake.h"

#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Real GDB 13.1 bytecode, captured from `set debug remote 1` against
   gdbserver for a -O0 program (x, y locals and p a parameter of f; g,
   gl, gp globals of struct { int x; short y; long z; unsigned char c; }):
     break f if x == 3
     break prog.c:8 if g == 7 && gp.y < 0      } one location: GDB
     break prog.c:8 if p->z == 300             } sends both conditions
   and likewise the other two packets.  `maint agent-eval` printed the
   same programs (e.g. reg 6 / const8 16 / add / const8 220 / ext 8 / add
   / ref32 / ext 32 / const8 3 / equal / end for x == 3).  */
static const char *const gdb_z0[] = {
	"Z0,555555555134,1;X12,26000622100222dc16080219162022031327",
	"Z0,55555555513c,1;X35,250000555555558010191620220713200015210032"
	"25000055555555802022040218161022001420002d2100322201210034220027"
	"X17,26000622100222d01608021a2208021a164023012c1327",
	"Z0,555555555134,1;X12,2500005555555580181a164022fd16081427"
	"X9,260005164022031327",
	"Z0,55555555513c,1;X42,26000622100222ec16080219162026000622100222"
	"dc1608021916202202041620130e20003f250000555555558020221002172300"
	"c81320003f2200210041220127X3c,26000622100222ec160802191620220613"
	"20001721003926000622100222d01608021a22040218161022fe160813200034"
	"210039220121003b220027",
};

#define RBP 0x7fffffffe630ull
#define G_ADDR 0x555555558010ull
#define GL_ADDR 0x555555558018ull
#define GP_ADDR 0x555555558020ull
#define OTHER_ADDR 0x555555558040ull   /* a second struct for p */

struct world {
	int x, y, g;
	long gl;
	uint64_t p, rdi;
	short py[2];            /* y field of gp, of the other struct */
	long pz[2];
	unsigned char pc;
};

static void world_load(struct fake *f, const struct world *w)
{
	memset(f, 0, sizeof(*f));
	fake_map(f, RBP - 0x30, 0x40);
	fake_map(f, 0x555555558000, 0x80);
	fake_set_reg(f, 6, RBP);
	fake_set_reg(f, 5, w->rdi);
	fake_put(f, RBP - 20, (uint32_t) w->x, 4);
	fake_put(f, RBP - 4, (uint32_t) w->y, 4);
	fake_put(f, RBP - 32, w->p, 8);
	fake_put(f, G_ADDR, (uint32_t) w->g, 4);
	fake_put(f, GL_ADDR, (uint64_t) w->gl, 8);
	for (int k = 0; k < 2; k++) {
		uint64_t s = k ? OTHER_ADDR : GP_ADDR;

		fake_put(f, s, 1, 4);
		fake_put(f, s + 4, (uint16_t) w->py[k], 2);
		fake_put(f, s + 8, (uint64_t) w->pz[k], 8);
		fake_put(f, s + 16, k ? 0 : w->pc, 1);
	}
}

/* The C meaning of each condition, in packet order.  */
static bool world_cond(const struct world *w, unsigned pkt, unsigned k)
{
	int p = w->p == OTHER_ADDR;

	switch (pkt * 2 + k) {
	case 0: return w->x == 3;
	case 2: return w->g == 7 && w->py[0] < 0;
	case 3: return w->pz[p] == 300;
	case 4: return w->gl < -3;
	case 5: return w->rdi == 3;
	case 6: return w->y != w->x * 2 || w->pc == 200;
	case 7: return w->y == 6 && w->py[p] == -2;
	}
	cr_assert_fail("no condition %u/%u", pkt, k);
	return false;
}

static void world_pick(struct world *w, unsigned i)
{
	static const int xs[] = { -3, 0, 3, 4 };
	static const long gls[] = { -5, -3, 0, INT64_MIN };

	w->x = xs[i % 4];
	w->y = (i / 4) % 3 == 0 ? w->x * 2 : (i / 4) % 3 == 1 ? 6 : -1;
	w->g = i / 12 % 2 ? 7 : 8;
	w->gl = gls[i / 24 % 4];
	w->p = i / 96 % 2 ? OTHER_ADDR : GP_ADDR;
	w->rdi = i % 5 == 0 ? 3 : 0x100000003;  /* high bits matter */
	w->py[0] = i / 3 % 2 ? -2 : 0;
	w->py[1] = i / 5 % 2 ? -2 : 7;
	w->pz[0] = i / 7 % 2 ? 300 : 301;
	w->pz[1] = i / 11 % 2 ? 300 : -300;
	w->pc = i / 13 % 2 ? 200 : 56;
}

/* Split "Z0,ADDR,1;..." as the Z handler would, and load its tail.  */
static void parse_z0(const char *pkt, struct ax_cond_list *list,
		     uint64_t *addr)
{
	const char *tail = strchr(pkt, ';');

	cr_assert(!strncmp(pkt, "Z0,", 3) && tail && !strncmp(tail - 2, ",1", 2));
	*addr = strtoull(pkt + 3, NULL, 16);
	cr_assert_eq(ax_conds_parse_z(list, *addr, tail, tail + strlen(tail)),
		     0, "%s", pkt);
}

Test(ax_gdb, captured_conditions_evaluate_as_c_does)
{
	unsigned seen_true[4] = { 0 }, seen_false[4] = { 0 };

	for (unsigned pkt = 0; pkt < 4; pkt++) {
		struct ax_cond_list list;
		uint64_t addr;

		ax_cond_list_init(&list);
		parse_z0(gdb_z0[pkt], &list, &addr);
		cr_assert_eq(ax_conds_count(&list, addr), pkt ? 2 : 1);
		for (unsigned i = 0; i < 192; i++) {
			struct world w;
			struct fake f;
			struct ax_context ctx = fake_ctx(&f);
			bool any = false;

			world_pick(&w, i);
			world_load(&f, &w);
			for (unsigned k = 0; k < list.entries[0].count; k++) {
				int64_t r = -1;
				bool want = world_cond(&w, pkt, k);

				cr_assert_eq(ax_eval(list.entries[0].exprs[k],
						     &ctx, &r), 0);
				cr_assert_eq(r, want, "packet %u cond %u world %u",
					     pkt, k, i);
				any |= want;
			}
			cr_assert_eq(ax_conds_eval(&list, addr, &ctx), any);
			seen_true[pkt] += any;
			seen_false[pkt] += !any;
		}
		ax_cond_list_fini(&list);
	}
	/* The worlds exercise both outcomes of every packet.  */
	for (unsigned pkt = 0; pkt < 4; pkt++)
		cr_assert(seen_true[pkt] && seen_false[pkt], "packet %u", pkt);
}

/* x == 3 as `maint agent-eval` lists it, and `maint agent x == 3`, the
   collection form, which adds trace_quick and leaves nothing on the
   stack: as a condition that is an error, and errors report the stop.  */
#define X_EQ_3_HEAD 0x26, 0, 6, 0x22, 16, ax_op_add, 0x22, 220, 0x16, 8, \
	ax_op_add
#define X_EQ_3_TAIL ax_op_ref32, 0x16, 32, 0x22, 3, ax_op_equal

Test(ax_gdb, packet_matches_maint_agent_listings)
{
	static const uint8_t listing[] = { X_EQ_3_HEAD, X_EQ_3_TAIL, 0x27 };
	const char *t = strchr(gdb_z0[0], 'X'), *p = t;
	struct world w;
	struct fake f;
	struct ax_context ctx = fake_ctx(&f);
	struct ax_cond_list list;
	struct ax_expr *e;
	int64_t r = 9;

	cr_assert_eq(ax_parse(&p, t + strlen(t), &e), 0);
	cr_assert_eq(p, t + strlen(t));
	cr_assert_eq(e->len, sizeof(listing));
	cr_assert(!memcmp(e->bytes, listing, sizeof(listing)));
	ax_free(e);

	world_pick(&w, 1);       /* x == 0: the condition form is false */
	world_load(&f, &w);
	cr_assert_eq(run_code(&ctx, CODE(X_EQ_3_HEAD, ax_op_trace_quick, 4,
					 X_EQ_3_TAIL, ax_op_pop, 0x27), &r),
		     -pse_invalid);
	cr_assert_eq(r, 9);
	ax_cond_list_init(&list);
	cr_assert_eq(ax_alloc(CODE(X_EQ_3_HEAD, ax_op_trace_quick, 4,
				   X_EQ_3_TAIL, ax_op_pop, 0x27), &e), 0);
	cr_assert_eq(ax_conds_set(&list, 0x1000, &e, 1), 0);
	cr_assert_eq(ax_conds_eval(&list, 0x1000, &ctx), 1);
	ax_cond_list_fini(&list);
}

/* The per-address lists, fed through Z packet tails.  */
#define C_FALSE "X3,220027"
#define C_TRUE "X3,220127"
#define C_ERROR "X1,27"
#define C_READ "X4,22001727"   /* reads address 0: false */

static int parse_tail(struct ax_cond_list *list, uint64_t addr,
		      const char *tail)
{
	return ax_conds_parse_z(list, addr, tail, tail + strlen(tail));
}

Test(ax_conds, report_rules)
{
	struct fake f = { 0 };
	struct ax_context ctx = fake_ctx(&f);
	struct ax_cond_list list;

	fake_map(&f, 0, 8);
	ax_cond_list_init(&list);
	cr_assert_eq(ax_conds_eval(&list, 0x10, &ctx), 1);
	cr_assert_eq(parse_tail(&list, 0x10, ";" C_FALSE), 0);
	cr_assert_eq(ax_conds_eval(&list, 0x10, &ctx), 0);
	cr_assert_eq(ax_conds_eval(&list, 0x11, &ctx), 1);
	cr_assert_eq(parse_tail(&list, 0x10, ";" C_FALSE C_READ C_TRUE), 0);
	cr_assert_eq(ax_conds_count(&list, 0x10), 3);
	cr_assert_eq(ax_conds_eval(&list, 0x10, &ctx), 1);
	cr_assert_eq(f.mem_reads, 1);
	cr_assert_eq(parse_tail(&list, 0x10, ";" C_FALSE ";" C_ERROR), 0);
	cr_assert_eq(ax_conds_eval(&list, 0x10, &ctx), 1);
	/* The first true condition decides; the rest are not run.  */
	f.mem_reads = 0;
	cr_assert_eq(parse_tail(&list, 0x10, ";" C_TRUE ";" C_READ), 0);
	cr_assert_eq(ax_conds_eval(&list, 0x10, &ctx), 1);
	cr_assert_eq(f.mem_reads, 0);
	ax_cond_list_fini(&list);
}

Test(ax_conds, set_replaces_clear_forgets)
{
	struct fake f = { 0 };
	struct ax_context ctx = fake_ctx(&f);
	struct ax_cond_list list;
	struct ax_expr *v[2];
	const char *t = C_FALSE C_TRUE, *p = t, *end = t + strlen(t);

	ax_cond_list_init(&list);
	for (uint64_t addr = 0x100; addr < 0x120; addr++)
		cr_assert_eq(parse_tail(&list, addr, ";" C_FALSE), 0);
	cr_assert_eq(ax_parse(&p, end, &v[0]), 0);
	cr_assert_eq(ax_parse(&p, end, &v[1]), 0);
	cr_assert_eq(ax_conds_set(&list, 0x105, v, 2), 0);
	cr_assert_eq(ax_conds_count(&list, 0x105), 2);
	cr_assert_eq(ax_conds_eval(&list, 0x105, &ctx), 1);
	cr_assert_eq(parse_tail(&list, 0x105, ";" C_FALSE), 0);
	cr_assert_eq(ax_conds_count(&list, 0x105), 1);
	cr_assert_eq(ax_conds_set(&list, 0x106, NULL, 0), 0);
	cr_assert_eq(ax_conds_count(&list, 0x106), 0);
	cr_assert_eq(ax_conds_eval(&list, 0x106, &ctx), 1);
	ax_conds_clear(&list, 0x100);
	ax_conds_clear(&list, 0x100);
	ax_conds_clear(&list, 0x5000);
	cr_assert_eq(ax_conds_eval(&list, 0x100, &ctx), 1);
	for (uint64_t addr = 0x101; addr < 0x120; addr++)
		cr_assert_eq(ax_conds_eval(&list, addr, &ctx), addr == 0x106,
			     "%lx", (unsigned long) addr);
	ax_conds_reset(&list);
	cr_assert_eq(ax_conds_count(&list, 0x101), 0);
	cr_assert_eq(ax_conds_eval(&list, 0x101, &ctx), 1);
	ax_cond_list_fini(&list);
}

Test(ax_conds, parse_z_tails)
{
	struct fake f = { 0 };
	struct ax_context ctx = fake_ctx(&f);
	struct ax_cond_list list;

	ax_cond_list_init(&list);
	cr_assert_eq(parse_tail(&list, 1, ";" C_FALSE ";" C_TRUE), 0);
	cr_assert_eq(ax_conds_count(&list, 1), 2);
	cr_assert_eq(ax_conds_eval(&list, 1, &ctx), 1);
	/* Commands are kept apart, unknown items skipped.  */
	cr_assert_eq(parse_tail(&list, 1, ";cmds:0," C_TRUE ";" C_FALSE ";zz"),
		     0);
	cr_assert_eq(ax_conds_count(&list, 1), 1);
	cr_assert_eq(ax_cmds_count(&list, 1), 1);
	cr_assert_eq(ax_conds_eval(&list, 1, &ctx), 0);
	/* Malformed: an error, and the old conditions stay.  */
	cr_assert_eq(parse_tail(&list, 1, ";" C_TRUE ";X3,2201"), -pse_invalid);
	cr_assert_eq(parse_tail(&list, 1, ";" C_TRUE ";X2,zz27"), -pse_badhex);
	cr_assert_eq(parse_tail(&list, 1, C_TRUE), -pse_invalid);
	cr_assert_eq(ax_conds_count(&list, 1), 1);
	cr_assert_eq(ax_conds_eval(&list, 1, &ctx), 0);
	/* A Z without conditions makes the address unconditional.  */
	cr_assert_eq(parse_tail(&list, 1, ""), 0);
	cr_assert_eq(ax_conds_count(&list, 1), 0);
	cr_assert_eq(ax_conds_eval(&list, 1, &ctx), 1);
	ax_cond_list_fini(&list);
}

/* Commands (";cmds:P,X..X.."): kept apart from the conditions, run in
   the order GDB sent them, replaced by the next Z of their address and
   gone with z.  */
struct fake_print {
	struct fake f;   /* first: the fake's callbacks read it */
	char out[64];
	size_t len;
};

static int fake_print(void *data, const char *text, size_t len)
{
	struct fake_print *fp = data;

	cr_assert_lt(fp->len + len, sizeof(fp->out));
	memcpy(fp->out + fp->len, text, len);
	fp->len += len;
	fp->out[fp->len] = '\0';
	return 0;
}

/* printf("A") and printf("B"), each with channel and function 0.  */
#define CMD_A "Xb,22002200340000024100" "27"
#define CMD_B "Xb,22002200340000024200" "27"

Test(ax_conds, commands)
{
	struct fake_print fp = { 0 };
	struct ax_context ctx = fake_ctx(&fp.f);
	struct ax_cond_list list;

	ctx.print = fake_print;
	ctx.data = &fp;
	ax_cond_list_init(&list);
	cr_assert_eq(parse_tail(&list, 7, ";" C_TRUE ";cmds:1," CMD_A CMD_B),
		     0);
	cr_assert_eq(ax_conds_count(&list, 7), 1);
	cr_assert_eq(ax_cmds_count(&list, 7), 2);
	cr_assert_eq(ax_cmds_run(&list, 7, &ctx), 0);
	cr_assert_str_eq(fp.out, "AB");
	/* No conditions: still an entry, and a hit is reported.  */
	cr_assert_eq(parse_tail(&list, 7, ";cmds:0," CMD_B), 0);
	cr_assert_eq(ax_conds_count(&list, 7), 0);
	cr_assert_eq(ax_conds_eval(&list, 7, &ctx), 1);
	fp.len = 0;
	cr_assert_eq(ax_cmds_run(&list, 7, &ctx), 0);
	cr_assert_str_eq(fp.out, "B");
	/* Malformed commands change nothing.  */
	cr_assert_eq(parse_tail(&list, 7, ";cmds:2," CMD_A), -pse_invalid);
	cr_assert_eq(parse_tail(&list, 7, ";cmds:1" CMD_A), -pse_invalid);
	cr_assert_eq(parse_tail(&list, 7, ";cmds:1,Xb,2200"), -pse_invalid);
	cr_assert_eq(ax_cmds_count(&list, 7), 1);
	/* A failing command is an error, the ones before it ran.  */
	cr_assert_eq(parse_tail(&list, 7, ";cmds:0," CMD_A "X1,01" CMD_B), 0);
	fp.len = 0;
	cr_assert_eq(ax_cmds_run(&list, 7, &ctx), -pse_unsupported);
	cr_assert_str_eq(fp.out, "A");
	/* A Z without anything forgets the address; so does z.  */
	cr_assert_eq(parse_tail(&list, 7, ""), 0);
	cr_assert_eq(ax_cmds_count(&list, 7), 0);
	cr_assert_eq(parse_tail(&list, 8, ";cmds:0," CMD_A), 0);
	ax_conds_clear(&list, 8);
	cr_assert_eq(ax_cmds_count(&list, 8), 0);
	fp.len = 0;
	cr_assert_eq(ax_cmds_run(&list, 8, &ctx), 0);
	cr_assert_eq(fp.len, 0);
	ax_cond_list_fini(&list);
}
