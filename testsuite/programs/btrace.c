/* The record btrace inferior: regions between marker functions whose call
   trees are known from the source, so that function-call-history, step
   landings and instruction counts can be predicted.  No libc call inside
   a region: PLT resolution would make the trace depend on the loader.

   region 1 (begin_region .. end_region): compute(3) calls sq three times,
   then fact(3) recurses to depth 3.
   region 2 (begin_sys .. end_sys): a raw getpid syscall, then a raw kill
   of ourselves with SIGUSR1, whose handler runs on the way out of it.
   region 3 (begin_wrap .. end_wrap): spin() calls sq through a pointer
   SPINS times, a trace (a TIP per call) larger than 4 KiB; region 4 below.  */
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
	void misc_region(void);
	misc_region();
	void deep_region(void);
	deep_region();
	printf("compute=%d fact=%d handled=%d spin=%d\n", a, b, handled, c);
	return 0;
}

/* region 4 (begin_misc .. end_misc): a rep stosb of 16 bytes (one
   instruction however many iterations) and a switch compiled to a jump
   table (an indirect jmp) for cases 0..4, 5 being the default.  */
void begin_misc(void)
{
}

void end_misc(void)
{
}

static char fill[16];

int pick(int k)
{
	switch (k) {
	case 0: return 10;
	case 1: return 21;
	case 2: return 32;
	case 3: return 43;
	case 4: return 54;
	default: return 65;
	}
}

void misc_region(void)
{
	int sum = 0;
	void *dst = fill;
	long n = sizeof fill;

	begin_misc();
	__asm__ volatile ("rep stosb" : "+D" (dst), "+c" (n) : "a" (0x5a)
			  : "memory");
	for (int k = 0; k < 6; k++)
		sum += pick(k);
	end_misc();
	if (fill[15] != 0x5a || sum != 225)
		printf("misc region wrong: %d\n", sum);
}

/* region 5 (begin_deep .. end_deep): down() recurses 100 deep, more than
   the 64 calls a PT decoder keeps for compressed returns.  */
void begin_deep(void)
{
}

void end_deep(void)
{
}

int down(int n)
{
	if (n == 0)
		return 0;
	return 1 + down(n - 1);
}

void deep_region(void)
{
	int depth;

	begin_deep();
	depth = down(100);
	end_deep();
	if (depth != 100)
		printf("deep region wrong: %d\n", depth);
}
