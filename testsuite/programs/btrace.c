/* The record btrace inferior: regions between marker functions whose call
   trees are known from the source, so that function-call-history, step
   landings and instruction counts can be predicted.  No libc call inside
   a region: PLT resolution would make the trace depend on the loader.

   region 1 (begin_region .. end_region): compute(3) calls sq three times,
   then fact(3) recurses to depth 3.
   region 2 (begin_sys .. end_sys): a raw getpid syscall, then a raw kill
   of ourselves with SIGUSR1, whose handler runs on the way out of it.
   region 3 (begin_wrap .. end_wrap): spin() calls sq through a pointer
   SPINS times, a trace (a TIP per call) larger than a small buffer.  */
#include <signal.h>
#include <stdio.h>
#include <sys/syscall.h>

#define SPINS 3000

static volatile int handled;
static int (*volatile op)(int);

int sq(int x)
{
	return x * x;
}

int compute(int n)
{
	int total = 0;
	for (int i = 1; i <= n; i++)
		total += sq(i);
	return total;
}

int fact(int n)
{
	if (n <= 1)
		return 1;
	return n * fact(n - 1);
}

int spin(int n)
{
	int total = 0;
	for (int i = 0; i < n; i++)
		total += op(i & 7);
	return total;
}

void begin_region(void)
{
}

void end_region(void)
{
}

void begin_sys(void)
{
}

void end_sys(void)
{
}

void begin_wrap(void)
{
}

void end_wrap(void)
{
}

/* Inline syscall so the instruction is in this program's code.  */
static long raw_syscall2(long nr, long a, long b)
{
	long ret;
	__asm__ volatile ("syscall" : "=a" (ret) : "a" (nr), "D" (a), "S" (b)
			  : "rcx", "r11", "memory");
	return ret;
}

void on_usr1(int sig)
{
	handled++;
}

int main(void)
{
	int a, b, c;
	long pid;

	signal(SIGUSR1, on_usr1);
	begin_region();
	a = compute(3);
	b = fact(3);
	end_region();
	begin_sys();
	pid = raw_syscall2(SYS_getpid, 0, 0);
	raw_syscall2(SYS_kill, pid, SIGUSR1);
	end_sys();
	op = sq;
	begin_wrap();
	c = spin(SPINS);
	end_wrap();
	printf("compute=%d fact=%d handled=%d spin=%d\n", a, b, handled, c);
	return 0;
}
