# Agent expressions: breakpoint conditions GDB hands to the stub
# (ConditionalBreakpoints+), parsed, evaluated and kept per address.
noinst_LIBRARIES += server/libpsagent.a
server_libpsagent_a_SOURCES = \
	server/agent_expr.c server/agent_expr.h

check_PROGRAMS += testsuite/unit/agent_expr_test
TESTS += testsuite/unit/agent_expr_test
testsuite_unit_agent_expr_test_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
testsuite_unit_agent_expr_test_LDADD = server/libpsagent.a \
	common/libpscommon.a $(CRITERION_LIBS)
