# Agent expressions: breakpoint conditions GDB hands to the stub
# (ConditionalBreakpoints+) and breakpoint commands (BreakpointCommands+,
# a dprintf's printf), parsed, evaluated and kept per address.
noinst_LIBRARIES += server/libpsagent.a
server_libpsagent_a_SOURCES = \
	server/agent_expr.c server/agent_expr.h \
	server/agent_cond.c server/agent_cond.h \
	server/agent_printf.c server/agent_printf.h

agent_test_libs = server/libpsagent.a common/libpscommon.a $(CRITERION_LIBS)
check_PROGRAMS += testsuite/unit/agent_expr_test testsuite/unit/agent_cond_test \
	testsuite/unit/agent_printf_test
TESTS += testsuite/unit/agent_expr_test testsuite/unit/agent_cond_test \
	testsuite/unit/agent_printf_test
EXTRA_DIST += testsuite/unit/agent_fake.h
testsuite_unit_agent_expr_test_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
testsuite_unit_agent_expr_test_LDADD = $(agent_test_libs)
testsuite_unit_agent_cond_test_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
testsuite_unit_agent_cond_test_LDADD = $(agent_test_libs)
testsuite_unit_agent_printf_test_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
testsuite_unit_agent_printf_test_LDADD = $(agent_test_libs)
