/* Fuzz target: libptbtrace's PT path with any bytes as the trace: a
   bundle of one code page (calls, returns, conditional and indirect
   branches, so that TNT and TIP packets lead somewhere) and the input
   as its raw trace, decoded into function segments, with `info record`
   counts and the packet list.  Inputs starting with 'B' go down the BTS
   path instead (16-byte blocks).  */
#include "btrace/ptbtrace.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define CODE_AT 0x400000u

static const uint8_t code_head[] = {
	0xe8, 0x0b, 0x00, 0x00, 0x00,   /* 400000: call 400010 */
	0x75, 0xf9,                     /* 400005: jnz 400000 */
	0xff, 0xe0,                     /* 400007: jmp *%rax */
	0xc3,                           /* 400009: ret */
	0x90, 0x90, 0x90, 0x90, 0x90, 0x90,
	0x85, 0xc0,                     /* 400010: test %eax,%eax */
	0x74, 0x02,                     /* 400012: jz 400016 */
	0xff, 0xd0,                     /* 400014: call *%rax */
	0xc3,                           /* 400016: ret */
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t page[4096];
	struct bt_bundle b;
	struct bt_pages pages;
	struct bt_diag diag;
	struct bt_image *image;
	struct bt_ftrace *ftrace;
	struct bt_packets *packets;
	uint32_t insns, functions, gaps;
	uint8_t *blocks = NULL;

	if (!page[0]) {
		/* The rest of the page returns: a TIP anywhere in it ends
		   in a RET the decoder must follow too.  */
		memset(page, 0xc3, sizeof(page));
		memcpy(page, code_head, sizeof(code_head));
	}
	memset(&b, 0, sizeof(b));
	pages.address = CODE_AT;
	pages.size = sizeof(page);
	pages.prot = PROT_READ | PROT_EXEC;
	pages.name = "code";
	pages.bytes = page;
	b.pages = &pages;
	b.npages = 1;
	b.pid = b.tid = 1;
	b.buffer_size = 4096;
	if (size && data[0] == 'B') {
		/* Whole 16-byte blocks, as a bundle holds them.  */
		size_t n = (size - 1) / 16 * 16;

		blocks = malloc(n ? n : 1);
		if (!blocks)
			return 0;
		memcpy(blocks, data + 1, n);
		b.format = btf_bts;
		b.trace = blocks;
		b.trace_size = n;
	} else {
		b.format = btf_pt;
		b.trace = data;
		b.trace_size = size;
	}
	bt_diag_init(&diag);
	if (bt_image_alloc(&image, &b, &diag) < 0) {
		free(blocks);
		return 0;
	}
	bt_diag_init(&diag);
	if (bt_ftrace_build(&ftrace, &b, image, &diag) == 0) {
		bt_ftrace_counts(ftrace, &insns, &functions, &gaps);
		bt_ftrace_free(ftrace);
	}
	bt_diag_init(&diag);
	if (bt_packets_alloc(&packets, &b, &diag) == 0)
		bt_packets_free(packets);
	bt_image_free(image);
	free(blocks);
	return 0;
}
