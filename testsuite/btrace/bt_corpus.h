/* The btrace test corpus: the real program testsuite/btrace/bt_prog, its
   addresses read from its ELF file, and Intel PT traces encoded with
   libipt's encoder that follow its real control flow.  Test-only.  */
#ifndef BT_CORPUS_H
#define BT_CORPUS_H

#include "btrace/ptbtrace.h"

#include <stddef.h>
#include <stdint.h>

/* Where the corpus maps bt_prog (a PIE) in its bundles.  */
#define BT_CORPUS_BASE 0x555555554000ull

struct bt_corpus_func {
	uint64_t address;         /* run-time */
	uint64_t size;
	uint64_t calls[2];        /* run-time addresses of its call insns */
	size_t ncalls;
	uint64_t ret;             /* its (only) ret instruction */
};

struct bt_corpus {
	char prog[4096];          /* path of bt_prog */
	char source[4096];        /* path of bt_prog.c */
	struct bt_mapping mapping;
	struct bt_corpus_func main, f, g;

	uint8_t trace[4096];
	size_t trace_size;
	struct bt_bundle bundle;
};

/* Find bt_prog and read its functions; a negative value and a reason in
   WHY when the corpus is not there (the caller then skips).  */
int bt_corpus_init(struct bt_corpus *corpus, char *why, size_t why_size);

/* The length of the instruction at run-time ADDRESS in bt_prog.  */
int bt_corpus_insn_length(const struct bt_corpus *corpus, uint64_t address);

/* Instructions from FIRST to LAST (both run-time, inclusive), counted by
   walking the code: the expectation, independent of the library.  */
uint32_t bt_corpus_count(const struct bt_corpus *corpus, uint64_t first,
			 uint64_t last);

/* The line of MARKER ("L:main_open") in bt_prog.c, or -1.  */
int bt_corpus_line(const struct bt_corpus *corpus, const char *marker);

/* The trace of main calling f(1) and f(2), each calling g, stopped at
   main's ret, which is the bundle's pc.  */
int bt_corpus_calls(struct bt_corpus *corpus);

/* The same with time: a TSC packet of 1000 in the PSB+, one of 5000
   between the first call's returns and the second's.  */
int bt_corpus_calls_timed(struct bt_corpus *corpus);

/* The same with a decode error: the second call's return is replaced by
   a TIP to an address nothing is mapped at.  */
int bt_corpus_calls_with_error(struct bt_corpus *corpus);

/* The same with an overflow packet after the first call to f returns,
   then tracing resumes at the second call (a FUP there).  */
int bt_corpus_calls_with_overflow(struct bt_corpus *corpus);

/* The calls run TIMES times in one trace (in a malloc'ed *TRACE, which
   the bundle then points to), for measuring time and memory.  */
int bt_corpus_calls_repeated(struct bt_corpus *corpus, size_t times,
			     uint8_t **trace, size_t *size);

/* The same without gaps: main's ret jumps (TIP) back to main's start,
   TIMES runs in one stretch of trace.  */
int bt_corpus_calls_looped(struct bt_corpus *corpus, size_t times,
			   uint8_t **trace, size_t *size);

/* The second program, bt_asm: a tail call, a call to the next
   instruction and a fall-through into another function (see bt_asm.c).  */
struct bt_corpus_asm {
	char prog[4096];
	struct bt_mapping mapping;
	uint64_t t_main, t_a, t_b, t_pic, t_c;
	uint64_t t_main_ret;
	uint8_t trace[256];
	size_t trace_size;
	struct bt_bundle bundle;
};

int bt_corpus_asm_init(struct bt_corpus_asm *corpus, char *why,
		       size_t why_size);

/* The trace through t_main's two calls, stopped at its ret.  */
int bt_corpus_asm_trace(struct bt_corpus_asm *corpus);

#endif
