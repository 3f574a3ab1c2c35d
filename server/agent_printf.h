/* The agent's printf: what the `printf` bytecode of a dprintf with
   `set dprintf-style agent` prints, formatted in the stub as gdbserver
   formats it (GDB sends the format as the user typed it, escapes and
   all, and the argument values; the stub reads %s strings from the
   inferior).  Its own file because it is a small format interpreter,
   not an opcode.  */
#ifndef SERVER_AGENT_PRINTF_H
#define SERVER_AGENT_PRINTF_H

#include "server/agent_expr.h"
#include "common/ps_buf.h"

#include <stddef.h>
#include <stdint.h>

/* The longest %s string read from the inferior.  gdbserver reads until
   the NUL however far it is; a bound keeps a bad pointer from costing
   the stub its memory.  */
#define AX_PRINTF_STRING_MAX (1u << 20)

/* Append to OUT what FORMAT (NUL-terminated, GDB's escapes not yet
   processed) prints with ARGS[0..NARGS), ARGS[0] for the first
   directive.  The directives are those gdbserver's agent formats:
   d i o u x X c (int, with h, l, ll or z) and s; %% and literal text.
   Errors, with OUT unchanged:
     -pse_invalid      a malformed format (bad escape, bad modifiers,
                       an incomplete directive), or NARGS not the number
                       of directives
     -pse_unsupported  a directive gdbserver's agent refuses too (%p,
                       floating point, wide characters and strings)
     -pse_fault        a %s string that cannot be read
     -pse_toolong      a %s string longer than AX_PRINTF_STRING_MAX
     -pse_nomem.  */
int ax_printf_format(const char *format, const uint64_t *args, size_t nargs,
		     const struct ax_context *ctx, struct ps_buf *out);

#endif
