#define _GNU_SOURCE
#include "common/gdb_signals.h"

#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

/* Wire numbers checked one by one against GDB's signals.def.  */
Test(gdb_signals, known_wire_numbers)
{
	cr_assert_eq(gdb_signal_from_host(0), 0);
	cr_assert_eq(gdb_signal_from_host(SIGTRAP), 5);
	cr_assert_eq(gdb_signal_from_host(SIGUSR1), 30);
	cr_assert_eq(gdb_signal_from_host(SIGUSR2), 31);
	cr_assert_eq(gdb_signal_from_host(SIGBUS), 10);
	cr_assert_eq(gdb_signal_from_host(SIGCHLD), 20);
	cr_assert_eq(gdb_signal_from_host(SIGSTOP), 17);
	cr_assert_eq(gdb_signal_from_host(SIGCONT), 19);
	cr_assert_eq(gdb_signal_from_host(SIGSYS), 12);
	cr_assert_eq(gdb_signal_from_host(SIGPWR), 32);
	cr_assert_eq(gdb_signal_from_host(SIGIO), 23);
	cr_assert_eq(gdb_signal_from_host(SIGURG), 16);
	cr_assert_eq(gdb_signal_from_host(32), 77);
	cr_assert_eq(gdb_signal_from_host(33), 45);
	cr_assert_eq(gdb_signal_from_host(34), 46);
	cr_assert_eq(gdb_signal_from_host(63), 75);
	cr_assert_eq(gdb_signal_from_host(64), 78);
}

Test(gdb_signals, every_host_signal_round_trips)
{
	for (int s = 1; s <= SIGRTMAX; s++) {
		int g = gdb_signal_from_host(s);

		if (s == SIGSTKFLT) {
			cr_assert_eq(g, gdb_sig_unknown);
			continue;
		}
		cr_assert_neq(g, gdb_sig_unknown, "host %d", s);
		cr_assert(g > 0 && g < gdb_sig_last, "host %d -> %d", s, g);
		cr_assert_eq(gdb_signal_to_host(g), s, "host %d -> %d", s, g);
	}
}

Test(gdb_signals, host_numbers_are_distinct_on_the_wire)
{
	int seen[gdb_sig_last] = { 0 };

	for (int s = 1; s <= SIGRTMAX; s++) {
		int g = gdb_signal_from_host(s);

		if (g == gdb_sig_unknown)
			continue;
		cr_assert_eq(seen[g], 0, "host %d and %d both -> %d",
			     seen[g], s, g);
		seen[g] = s;
	}
}

Test(gdb_signals, every_wire_number_round_trips_or_is_rejected)
{
	for (int g = 0; g < gdb_sig_last; g++) {
		int h = gdb_signal_to_host(g);

		if (h < 0) {
			cr_assert_eq(h, -1);
			continue;
		}
		if (g == 33) {
			/* GDB's SIGPOLL is Linux's SIGIO.  */
			cr_assert_eq(h, SIGIO);
			cr_assert_eq(gdb_signal_from_host(h), 23);
			continue;
		}
		cr_assert_eq(gdb_signal_from_host(h), g, "wire %d -> %d", g, h);
	}
	cr_assert_eq(gdb_signal_to_host(7), -1);     /* SIGEMT */
	cr_assert_eq(gdb_signal_to_host(29), -1);    /* SIGLOST */
	cr_assert_eq(gdb_signal_to_host(79), -1);    /* SIG65 */
	cr_assert_eq(gdb_signal_to_host(gdb_sig_unknown), -1);
	cr_assert_eq(gdb_signal_to_host(-3), -1);
	cr_assert_eq(gdb_signal_to_host(1000), -1);
	cr_assert_eq(gdb_signal_from_host(-1), gdb_sig_unknown);
	cr_assert_eq(gdb_signal_from_host(65), gdb_sig_unknown);
}

/* glibc's abbreviations are an independent source for the names.  */
Test(gdb_signals, names_agree_with_glibc)
{
	for (int s = 1; s < SIGRTMIN - 2; s++) {
		char want[32];

		if (s == SIGSTKFLT)
			continue;
		/* glibc calls 29 SIGPOLL, GDB calls it SIGIO.  */
		snprintf(want, sizeof(want), "SIG%s",
			 s == SIGIO ? "IO" : sigabbrev_np(s));
		cr_assert_str_eq(gdb_signal_name(gdb_signal_from_host(s)), want,
				 "host %d", s);
	}
}

Test(gdb_signals, realtime_names_follow_the_host_number)
{
	for (int s = 32; s <= 64; s++) {
		char want[16];

		snprintf(want, sizeof(want), "SIG%d", s);
		cr_assert_str_eq(gdb_signal_name(gdb_signal_from_host(s)), want);
	}
	cr_assert_str_eq(gdb_signal_name(141), "SIG127");
	cr_assert_str_eq(gdb_signal_name(79), "SIG65");
}

Test(gdb_signals, odd_names)
{
	cr_assert_str_eq(gdb_signal_name(0), "0");
	cr_assert_str_eq(gdb_signal_name(7), "SIGEMT");
	cr_assert_str_eq(gdb_signal_name(33), "SIGPOLL");
	cr_assert_str_eq(gdb_signal_name(76), "SIGCANCEL");
	cr_assert_str_eq(gdb_signal_name(142), "SIGINFO");
	cr_assert_str_eq(gdb_signal_name(151), "SIGLIBRT");
	cr_assert_str_eq(gdb_signal_name(gdb_sig_unknown), "?");
	cr_assert_str_eq(gdb_signal_name(144), "?");
	cr_assert_str_eq(gdb_signal_name(gdb_sig_last), "?");
	cr_assert_str_eq(gdb_signal_name(-1), "?");
}
