/* libopcodes through bt_disasm: GDB's AT&T text for bt_prog's code, with
   call targets named as GDB names them.  */
#define _GNU_SOURCE
#include "btrace/bt_disasm.h"
#include "testsuite/btrace/bt_corpus_main.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static struct bt_corpus corpus;
BT_CORPUS_TEST_MAIN(bt_disasm, corpus)

static struct bt_image *image_of(void)
{
	struct bt_image *image;
	struct bt_diag diag;

	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	cr_assert_eq(bt_image_alloc(&image, &corpus.bundle, &diag), 0, "%s",
		     diag.text);
	return image;
}

Test(bt_disasm, push_and_its_length)
{
	struct bt_image *image = image_of();
	struct bt_disasm *d;
	char text[128];

	cr_assert_eq(bt_disasm_alloc(&d, image), 0);
	cr_assert_eq(bt_disasm_insn(d, corpus.main.address, text,
				    sizeof(text)), 1);
	cr_assert_str_eq(text, "push   %rbp");
	/* x86's printer asks for 7 bytes of raw column.  */
	cr_assert_eq(bt_disasm_bytes_per_line(d), 7);
	bt_disasm_free(d);
	bt_image_free(image);
}

Test(bt_disasm, calls_name_their_target)
{
	struct bt_image *image = image_of();
	struct bt_disasm *d;
	char text[128], want[64];

	cr_assert_eq(bt_disasm_alloc(&d, image), 0);
	cr_assert_eq(bt_disasm_insn(d, corpus.main.calls[0], text,
				    sizeof(text)), 5);
	snprintf(want, sizeof(want), "call   0x%" PRIx64 " <f>",
		 corpus.f.address);
	cr_assert_str_eq(text, want);
	bt_disasm_free(d);
	bt_image_free(image);
}

Test(bt_disasm, unmapped_code_and_small_buffers)
{
	struct bt_image *image = image_of();
	struct bt_disasm *d;
	char text[4];

	cr_assert_eq(bt_disasm_alloc(&d, image), 0);
	cr_assert_lt(bt_disasm_insn(d, 0x1000, text, sizeof(text)), 0);
	/* The text is cut, never overrun.  */
	cr_assert_eq(bt_disasm_insn(d, corpus.main.address, text,
				    sizeof(text)), 1);
	cr_assert_str_eq(text, "pus");
	cr_assert_lt(bt_disasm_insn(d, corpus.main.address, NULL, 0), 0);
	bt_disasm_free(d);
	bt_image_free(image);
	cr_assert_lt(bt_disasm_alloc(&d, NULL), 0);
}
