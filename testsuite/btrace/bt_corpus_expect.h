/* Expectations for the corpus's calls trace, shared by the tests of the
   decoders and of function segments: nine segments, main -> f -> g twice,
   with instruction counts from walking bt_prog's code.  Test-only; it
   needs a `corpus` variable and criterion.  */
#ifndef BT_CORPUS_EXPECT_H
#define BT_CORPUS_EXPECT_H

#include "btrace/ptbtrace.h"
#include "testsuite/btrace/bt_corpus.h"

#include <criterion/criterion.h>
#include <string.h>

struct built {
	struct bt_image *image;
	struct bt_ftrace *ft;
};

static inline struct built build(const struct bt_bundle *b)
{
	struct built r;
	struct bt_diag diag;

	bt_diag_init(&diag);
	cr_assert_eq(bt_image_alloc(&r.image, b, &diag), 0, "%s", diag.text);
	cr_assert_eq(bt_ftrace_build(&r.ft, b, r.image, &diag), 0, "%s",
		     diag.text);
	return r;
}

static inline void done(struct built *r)
{
	bt_ftrace_free(r->ft);
	bt_image_free(r->image);
}

static inline struct bt_function fn(const struct built *r, uint32_t n)
{
	struct bt_function f;

	cr_assert_eq(bt_ftrace_function(r->ft, n, &f), 0, "segment %u", n);
	return f;
}

/* The return address of the call at CALL.  */
static inline uint64_t after(uint64_t call)
{
	return call + (unsigned int) bt_corpus_insn_length(&corpus, call);
}

/* What each of the nine segments of the calls trace holds.  */
struct expect {
	const char *name;
	int level;
	uint64_t first, last;     /* instruction range */
	uint32_t up, prev, next;
};

static inline void expectations(struct expect e[9])
{
	const struct bt_corpus_func *m = &corpus.main, *f = &corpus.f,
		*g = &corpus.g;
	struct expect x[9] = {
		{ "main", 0, m->address, m->calls[0], 0, 0, 5 },
		{ "f", 1, f->address, f->calls[0], 1, 0, 4 },
		{ "g", 2, g->address, g->ret, 2, 0, 0 },
		{ "f", 1, after(f->calls[0]), f->ret, 1, 2, 0 },
		{ "main", 0, after(m->calls[0]), m->calls[1], 0, 1, 9 },
		{ "f", 1, f->address, f->calls[0], 5, 0, 8 },
		{ "g", 2, g->address, g->ret, 6, 0, 0 },
		{ "f", 1, after(f->calls[0]), f->ret, 5, 6, 0 },
		/* Up to the stop at main's ret, the current instruction.  */
		{ "main", 0, after(m->calls[1]), m->ret, 0, 5, 0 },
	};

	memcpy(e, x, sizeof(x));
}

static inline void check_calls_links(const struct built *r, int nseg, int links)
{
	struct expect e[9];
	uint32_t offset = 1;

	expectations(e);
	cr_assert_geq(bt_ftrace_nfunctions(r->ft), (size_t) nseg);
	for (int i = 0; i < nseg; ++i) {
		struct bt_function s = fn(r, (uint32_t) i + 1);

		cr_assert_str_eq(s.msym, e[i].name, "segment %d", i + 1);
		cr_assert_str_eq(s.sym, e[i].name, "segment %d", i + 1);
		cr_assert_eq(s.level + bt_ftrace_level(r->ft), e[i].level,
			     "segment %d", i + 1);
		cr_assert_eq(s.ninsn, bt_corpus_count(&corpus, e[i].first,
						      e[i].last),
			     "segment %d", i + 1);
		cr_assert_eq(s.insn_offset, offset, "segment %d", i + 1);
		cr_assert_eq(s.up, e[i].up, "segment %d up", i + 1);
		cr_assert_eq(s.prev, e[i].prev, "segment %d prev", i + 1);
		if (links || i != 0)
			cr_assert_eq(s.next, e[i].next, "segment %d next",
				     i + 1);
		cr_assert_eq(s.errcode, 0);
		offset += s.ninsn;
	}
}

static inline void check_calls(const struct built *r, int nseg)
{
	cr_assert_eq(bt_ftrace_nfunctions(r->ft), (size_t) nseg);
	check_calls_links(r, nseg, 1);
}

#endif
