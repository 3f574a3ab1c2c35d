# The flight recorder and post-mortem debugging, end to end: programs
# that crash at the end of a chain of calls, and one that loops.
check_PROGRAMS += testsuite/rec/crash_chain testsuite/rec/crash_assert \
	testsuite/rec/crash_thread testsuite/rec/loop testsuite/rec/dlclose \
	testsuite/rec/fork_crash testsuite/rec/fork_loop \
	testsuite/rec/ended_threads testsuite/rec/exec_vdso \
	testsuite/rec/sleepy testsuite/rec/service testsuite/rec/service_client
testsuite_rec_crash_chain_SOURCES = testsuite/rec/crash_chain.c
testsuite_rec_crash_assert_SOURCES = testsuite/rec/crash_assert.c
testsuite_rec_crash_thread_SOURCES = testsuite/rec/crash_thread.c
testsuite_rec_crash_thread_CFLAGS = -pthread
testsuite_rec_crash_thread_LDFLAGS = -pthread
testsuite_rec_loop_SOURCES = testsuite/rec/loop.c
testsuite_rec_dlclose_SOURCES = testsuite/rec/dlclose.c
testsuite_rec_fork_crash_SOURCES = testsuite/rec/fork_crash.c
testsuite_rec_fork_loop_SOURCES = testsuite/rec/fork_loop.c
testsuite_rec_dlclose_LDADD = -ldl
testsuite_rec_exec_vdso_SOURCES = testsuite/rec/exec_vdso.c
testsuite_rec_sleepy_SOURCES = testsuite/rec/sleepy.c
testsuite_rec_ended_threads_SOURCES = testsuite/rec/ended_threads.c
testsuite_rec_ended_threads_CFLAGS = -pthread
testsuite_rec_ended_threads_LDFLAGS = -pthread
testsuite_rec_service_SOURCES = testsuite/rec/service.c
testsuite_rec_service_CFLAGS = -pthread
testsuite_rec_service_LDFLAGS = -pthread
testsuite_rec_service_client_SOURCES = testsuite/rec/service_client.c
testsuite_rec_service_client_CFLAGS = -pthread
testsuite_rec_service_client_LDFLAGS = -pthread
# Whatever the tree is configured with (-O2, sanitizers), they are plain.
testsuite/rec/%: CFLAGS = -g -O0

TESTS += testsuite/rec/rec_crash.sh testsuite/rec/rec_snapshots.sh \
	testsuite/rec/rec_output.sh testsuite/rec/rec_engines.sh \
	testsuite/rec/rec_inherit.sh testsuite/rec/rec_exec.sh \
	testsuite/rec/rec_start.sh testsuite/rec/rec_ended.sh \
	testsuite/rec/rec_exec_vdso.sh testsuite/rec/rec_time.sh \
	testsuite/rec/rec_time_lldb.sh testsuite/rec/rec_service.sh
EXTRA_DIST += testsuite/rec/lib.sh testsuite/rec/rec_crash.sh \
	testsuite/rec/rec_snapshots.sh \
	testsuite/rec/rec_output.sh testsuite/rec/rec_engines.sh \
	testsuite/rec/rec_inherit.sh testsuite/rec/rec_exec.sh \
	testsuite/rec/rec_start.sh testsuite/rec/rec_ended.sh \
	testsuite/rec/rec_exec_vdso.sh testsuite/rec/rec_time.sh \
	testsuite/rec/rec_time_lldb.sh testsuite/rec/rec_service.sh
