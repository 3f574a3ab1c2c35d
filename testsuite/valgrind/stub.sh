#!/bin/sh
# ptstub under valgrind's memcheck, with the same command line, for the
# end-to-end scenarios (make check-valgrind gives it as E2E_STUB).  An
# error or a definite leak makes the exit status 99, which the scenario's
# transcript shows against gdbserver's 0.  Reports go to ptstub's
# standard error (a --log-file would stay open in the program ptstub
# starts, as its fd 3), which the scenario's transcript keeps and
# check.sh reads again.  The programs ptstub starts run natively (no
# --trace-children).
exec valgrind --tool=memcheck --quiet --error-exitcode=99 \
	--leak-check=full --errors-for-leak-kinds=definite \
	--show-leak-kinds=definite --num-callers=30 \
	"${VALGRIND_PTSTUB:?the ptstub to run}" "$@"
