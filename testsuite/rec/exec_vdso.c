/* Reads the clock through the vDSO, prints where its vDSO is, and execs
   itself once (argv[1] "again" the second time), which reads the clock
   and prints its vDSO too: with address randomization the two
   programs' vDSOs sit at different addresses.  */
#include <stdio.h>
#include <sys/auxv.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	printf("vdso %lx\n", getauxval(AT_SYSINFO_EHDR));
	fflush(stdout);
	if (argc < 2) {
		char *again[] = { argv[0], "again", NULL };

		execv("/proc/self/exe", again);
		return 1;
	}
	return ts.tv_sec < 0;
}
