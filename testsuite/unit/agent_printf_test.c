/* server/agent_printf.c: the agent's printf, and the printf bytecode
   that runs it.  */
#include "server/agent_printf.h"
#include "common/ps_error.h"
#include "testsuite/unit/agent_fake.h"

#include <criterion/criterion.h>
#include <string.h>

/* Format FMT with ARGS into a fresh buffer; the error, and the text in
   *OUT (to free).  */
static int fmt(struct fake *f, const char *format, const uint64_t *args,
	       size_t nargs, char **out)
{
	struct ax_context ctx = fake_ctx(f);
	struct ps_buf b;
	int err;

	ps_buf_init(&b);
	ps_buf_puts(&b, "<");   /* what was there before stays */
	err = ax_printf_format(format, args, nargs, &ctx, &b);
	*out = strdup(b.data);
	ps_buf_fini(&b);
	return err;
}

#define EXPECT_TEXT(f, format, want, ...) do { \
	const uint64_t a_[] = { 0, __VA_ARGS__ }; \
	char *o_; \
	int e_ = fmt(f, format, a_ + 1, sizeof(a_) / 8 - 1, &o_); \
	cr_assert_eq(e_, 0, "%s: error %d", format, e_); \
	cr_assert_str_eq(o_, "<" want, "%s", format); \
	free(o_); \
} while (0)

#define EXPECT_ERR(f, format, err, ...) do { \
	const uint64_t a_[] = { 0, __VA_ARGS__ }; \
	char *o_; \
	int e_ = fmt(f, format, a_ + 1, sizeof(a_) / 8 - 1, &o_); \
	cr_assert_eq(e_, err, "%s: error %d", format, e_); \
	cr_assert_str_eq(o_, "<", "%s: printed %s", format, o_); \
	free(o_); \
} while (0)

Test(ax_printf, literals_and_escapes)
{
	struct fake f = { 0 };

	/* GDB sends the format as typed: its escapes are ours to do.  */
	EXPECT_TEXT(&f, "At foo entry\\n", "At foo entry\n");
	EXPECT_TEXT(&f, "a\\tb\\\\c\\\"d\\e", "a\tb\\c\"d\033");
	EXPECT_TEXT(&f, "100%% sure", "100% sure");
	EXPECT_TEXT(&f, "", "");
	/* GDB's parser ends a format at an unescaped quote.  */
	EXPECT_TEXT(&f, "ab\"cd", "ab");
	EXPECT_ERR(&f, "bad \\q escape", -pse_invalid);
	EXPECT_ERR(&f, "ends in \\", -pse_invalid);
}

Test(ax_printf, integers_take_their_declared_width)
{
	struct fake f = { 0 };

	EXPECT_TEXT(&f, "arg=%d, g=%d\\n", "arg=1234, g=2\n", 1234, 2);
	/* int: the low 32 bits, signed, as gdbserver's (int) cast.  */
	EXPECT_TEXT(&f, "%d", "-1", 0xffffffffu);
	EXPECT_TEXT(&f, "%d", "5", 0x100000005ull);
	EXPECT_TEXT(&f, "%ld %lld", "4294967296 -1", 0x100000000ull,
		    (uint64_t) -1);
	EXPECT_TEXT(&f, "%zu %zx", "18446744073709551615 10", (uint64_t) -1,
		    16);
	EXPECT_TEXT(&f, "[%5d|%-4x|%#o|%+i|%05u|%hd|%c]",
		    "[   42|ff  |010|+7|00003|-1|A]", 42, 255, 8, 7, 3, 0xffff,
		    'A');
	EXPECT_TEXT(&f, "%.3d", "007", 7);
}

Test(ax_printf, strings_come_from_the_inferior)
{
	struct fake f = { 0 };
	struct fake_region *r = fake_map(&f, 0x1000, 16);
	struct fake_region *end = fake_map(&f, 0x3ffd, 3);

	memcpy(r->bytes, "hello\0world", 12);
	EXPECT_TEXT(&f, "<%s|%.3s|%8s>", "<hello|hel|   world>", 0x1000, 0x1000,
		    0x1006);
	EXPECT_TEXT(&f, "%s", "(null)", 0);
	/* Unmapped, or running into unmapped memory before a NUL.  */
	EXPECT_ERR(&f, "x%sy", -pse_fault, 0x9000);
	memcpy(end->bytes, "abc", 3);
	EXPECT_ERR(&f, "%s", -pse_fault, 0x3ffd);
	end->bytes[2] = '\0';
	EXPECT_TEXT(&f, "%s", "ab", 0x3ffd);
}

Test(ax_printf, what_gdbserver_refuses_prints_nothing)
{
	struct fake f = { 0 };

	/* GDB accepts these, gdbserver's agent does not.  */
	EXPECT_ERR(&f, "a %p", -pse_unsupported, 1);
	EXPECT_ERR(&f, "%f", -pse_unsupported, 1);
	EXPECT_ERR(&f, "%Lg", -pse_unsupported, 1);
	EXPECT_ERR(&f, "%lc", -pse_unsupported, 1);
	EXPECT_ERR(&f, "%ls", -pse_unsupported, 1);
	EXPECT_ERR(&f, "%Hf", -pse_unsupported, 1);
	/* Malformed, as GDB's own parser says.  */
	EXPECT_ERR(&f, "%*d", -pse_invalid, 1, 2);
	EXPECT_ERR(&f, "%n", -pse_invalid, 1);
	EXPECT_ERR(&f, "%", -pse_invalid);
	EXPECT_ERR(&f, "%y", -pse_invalid, 1);
	EXPECT_ERR(&f, "%#u", -pse_invalid, 1);
	EXPECT_ERR(&f, "% x", -pse_invalid, 1);
	EXPECT_ERR(&f, "%Ld", -pse_invalid, 1);
	EXPECT_ERR(&f, "%lllx", -pse_invalid, 1);
	EXPECT_ERR(&f, "%.2c", -pse_invalid, 1);
	EXPECT_ERR(&f, "%05s", -pse_invalid, 1);
	EXPECT_ERR(&f, "%hs", -pse_invalid, 1);
	EXPECT_ERR(&f, "%123456789012345678901234567890d", -pse_invalid, 1);
	/* The argument count must be the directives' count.  */
	EXPECT_ERR(&f, "%d %d", -pse_invalid, 1);
	EXPECT_ERR(&f, "%d", -pse_invalid, 1, 2);
	EXPECT_ERR(&f, "no directive", -pse_invalid, 1);
}

/* The printf bytecode: GDB pushes the arguments last first, then the
   channel and the function, then printf NARGS LEN FORMAT, then end.  */
/* A fake thread that also collects what printf prints: the fake first,
   so the fake's callbacks read it through the same data pointer.  */
struct fake_out {
	struct fake f;
	struct ps_buf out;
};

static int print_into(void *data, const char *text, size_t len)
{
	return ps_buf_append(&((struct fake_out *) data)->out, text, len);
}

static int run_printf(struct fake_out *fo, const uint8_t *code, size_t len,
		      int64_t *result)
{
	struct ax_context ctx = fake_ctx(&fo->f);

	ctx.print = print_into;
	ctx.data = fo;
	return run_code(&ctx, code, len, result);
}

Test(ax_printf, bytecode)
{
	struct fake_out fo = { 0 };
	struct ps_buf *out = &fo.out;
	int64_t r = 7;

	ps_buf_init(out);
	/* printf("x=%d y=%d\n", 1, 2): 2 pushed first, then 1.  */
	cr_assert_eq(run_printf(&fo, CODE(0x22, 2, 0x22, 1, 0x22, 0, 0x22, 0,
					 0x34, 2, 0, 12,
					 'x', '=', '%', 'd', ' ', 'y', '=',
					 '%', 'd', '\\', 'n', 0,
					 0x27), NULL), 0);
	cr_assert_str_eq(out->data, "x=1 y=2\n");
	/* With a result wanted, end after printf has nothing to give.  */
	ps_buf_reset(out);
	cr_assert_eq(run_printf(&fo, CODE(0x22, 0, 0x22, 0, 0x34, 0, 0, 3,
					 'o', 'k', 0, 0x27), &r),
		     -pse_invalid);
	cr_assert_str_eq(out->data, "ok");
	cr_assert_eq(r, 7);
	/* The format must end at its last byte.  */
	ps_buf_reset(out);
	cr_assert_eq(run_printf(&fo, CODE(0x22, 0, 0x22, 0, 0x34, 0, 0, 2,
					 'o', 'k', 0x27), NULL),
		     -pse_invalid);
	/* A format running past the expression.  */
	cr_assert_eq(run_printf(&fo, CODE(0x22, 0, 0x22, 0, 0x34, 0, 0, 9,
					 'o', 0, 0x27), NULL),
		     -pse_invalid);
	/* Fewer values on the stack than arguments plus channel and
	   function.  */
	cr_assert_eq(run_printf(&fo, CODE(0x22, 0, 0x22, 0, 0x34, 1, 0, 3,
					 '%', 'd', 0, 0x27), NULL),
		     -pse_invalid);
	cr_assert_eq(out->len, 0);
	/* Without somewhere to print, printf cannot run.  */
	{
		struct ax_context ctx = fake_ctx(&fo.f);

		cr_assert_eq(run_code(&ctx, CODE(0x22, 0, 0x22, 0, 0x34, 0,
						 0, 2, 'a', 0, 0x27), NULL),
			     -pse_unsupported);
	}
	ps_buf_fini(out);
}
