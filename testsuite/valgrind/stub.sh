#!/bin/sh
# ptstub under valgrind's memcheck, with the same command line, for the
# end-to-end scenarios (make check-valgrind gives it as E2E_STUB).  An
# error or a definite leak makes the exit status 99, which the scenario's
# transcript shows against gdbserver's 0; each run's report is also kept
# in $VALGRIND_LOGDIR for check-valgrind.sh to read.  The programs
# ptstub starts run natively (no --trace-children).
: "${VALGRIND_LOGDIR:=/tmp}"
exec valgrind --tool=memcheck --quiet --error-exitcode=99 \
	--leak-check=full --errors-for-leak-kinds=definite \
	--show-leak-kinds=definite --num-callers=30 \
	--log-file="$VALGRIND_LOGDIR/vg.%p.log" \
	"${VALGRIND_PTSTUB:?the ptstub to run}" "$@"
