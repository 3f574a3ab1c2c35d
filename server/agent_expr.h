/* Agent expressions: the bytecode GDB sends with Z0/Z1 ";X<len>,<hex>"
   once the stub advertises ConditionalBreakpoints+, so the stub can
   decide by itself whether a breakpoint hit is worth reporting.

   The evaluator follows gdbserver's (the reference peer) opcode by
   opcode for everything GDB emits; where gdbserver would read outside
   its stack, spin forever or trap (x / 0, INT64_MIN / -1), this one
   returns an error or a defined value instead.  */
#ifndef SERVER_AGENT_EXPR_H
#define SERVER_AGENT_EXPR_H

#include <stddef.h>
#include <stdint.h>

/* The deepest stack an expression may build: gdbserver fails once 99
   entries are live, so it accepts at most 98; accept exactly as much.  */
#define AX_STACK_MAX 98

/* Bytecodes executed before an expression is abandoned.  GDB only jumps
   forward, so its expressions run at most their length; a backward
   loop must not hang the stub.  */
#define AX_MAX_STEPS 65536

/* Longest bytecode accepted.  Jump targets are 16 bits, so nothing
   longer can be a sensible expression.  */
#define AX_MAX_LEN 65536

/* The bytecodes, with the numbers GDB gives them.  */
enum ax_opcode {
	ax_op_float = 0x01,
	ax_op_add = 0x02,
	ax_op_sub = 0x03,
	ax_op_mul = 0x04,
	ax_op_div_signed = 0x05,
	ax_op_div_unsigned = 0x06,
	ax_op_rem_signed = 0x07,
	ax_op_rem_unsigned = 0x08,
	ax_op_lsh = 0x09,
	ax_op_rsh_signed = 0x0a,
	ax_op_rsh_unsigned = 0x0b,
	ax_op_trace = 0x0c,
	ax_op_trace_quick = 0x0d,
	ax_op_log_not = 0x0e,
	ax_op_bit_and = 0x0f,
	ax_op_bit_or = 0x10,
	ax_op_bit_xor = 0x11,
	ax_op_bit_not = 0x12,
	ax_op_equal = 0x13,
	ax_op_less_signed = 0x14,
	ax_op_less_unsigned = 0x15,
	ax_op_ext = 0x16,
	ax_op_ref8 = 0x17,
	ax_op_ref16 = 0x18,
	ax_op_ref32 = 0x19,
	ax_op_ref64 = 0x1a,
	ax_op_ref_float = 0x1b,
	ax_op_ref_double = 0x1c,
	ax_op_ref_long_double = 0x1d,
	ax_op_l_to_d = 0x1e,
	ax_op_d_to_l = 0x1f,
	ax_op_if_goto = 0x20,
	ax_op_goto = 0x21,
	ax_op_const8 = 0x22,
	ax_op_const16 = 0x23,
	ax_op_const32 = 0x24,
	ax_op_const64 = 0x25,
	ax_op_reg = 0x26,
	ax_op_end = 0x27,
	ax_op_dup = 0x28,
	ax_op_pop = 0x29,
	ax_op_zero_ext = 0x2a,
	ax_op_swap = 0x2b,
	ax_op_getv = 0x2c,
	ax_op_setv = 0x2d,
	ax_op_tracev = 0x2e,
	ax_op_tracenz = 0x2f,
	ax_op_trace16 = 0x30,
	ax_op_invalid2 = 0x31,
	ax_op_pick = 0x32,
	ax_op_rot = 0x33,
	ax_op_printf = 0x34,
};

/* One expression's bytecode, as GDB sent it.  */
struct ax_expr {
	size_t len;
	uint8_t bytes[];
};

/* Copy LEN bytes of bytecode into a new expression.  */
int ax_alloc(const void *bytes, size_t len, struct ax_expr **out);

/* Parse one "X<hexlen>,<hex>" item at *P (bounded by END) into a new
   expression; on success *P moves past it.  On failure (-pse_invalid,
   -pse_badhex, -pse_toolong, -pse_nomem) neither *P nor *OUT change.
   The bytecode itself is checked only when it runs, as gdbserver does.  */
int ax_parse(const char **p, const char *end, struct ax_expr **out);

void ax_free(struct ax_expr *expr);

/* What an expression may look at: the stopped thread's memory and
   registers, filled in by the server.  A NULL callback makes the
   opcodes that need it fail with -pse_unsupported.  */
struct ax_context {
	/* Read LEN bytes at ADDR into BUF: the number of bytes read, or a
	   negative code.  Anything short of LEN fails the expression.  */
	long (*read_mem)(void *data, uint64_t addr, void *buf, size_t len);

	/* Register REGNO, numbered as GDB numbers amd64 registers (the
	   target description's order), zero-extended; for registers wider
	   than 64 bits, the low 64.  0 or a negative code.  */
	int (*read_reg)(void *data, unsigned regno, uint64_t *value);

	/* Print LEN bytes of TEXT where the stub prints a dprintf's output
	   (the `printf` bytecode of breakpoint commands).  0 or a negative
	   code.  */
	int (*print)(void *data, const char *text, size_t len);

	void *data;
};

/* Run EXPR and store the value left on top of the stack at `end` in
   *RESULT.  With RESULT NULL (a breakpoint command, run for what it
   does), `end` may find the stack empty, as `printf` leaves it.
   Errors, with nothing stored:
     -pse_invalid      malformed bytecode: empty, an unknown opcode, a
                       truncated operand, running past the last byte, a
                       jump out of the expression, stack underflow, or
                       `end` with an empty stack and a RESULT, `printf`
                       with a format that does not end at its last byte
     -pse_nospace      stack deeper than AX_STACK_MAX
     -pse_range        division or remainder by zero
     -pse_toolong      more than AX_MAX_STEPS bytecodes executed
     -pse_unsupported  a valid opcode with no meaning here (floating
                       point, trace16), or a missing callback
     -pse_notfound     getv/setv: the stub has no trace-state variables
     -pse_fault        a memory read that came back short or failed
   and whatever negative code read_reg, ax_printf_format (agent_printf.h)
   or the print callback returned.  */
int ax_eval(const struct ax_expr *expr, const struct ax_context *ctx,
	    int64_t *result);

#endif
