/* Loops: every Jcc the compiler picks, plus LOOP, LOOPE, LOOPNE, JRCXZ
   and JECXZ written by hand.  */
#include <stdio.h>

static long __attribute__((noinline)) hand_loops(long n)
{
	long out = 0, c = n;

	__asm__ volatile(
		"1: add $1, %[out]\n\t"
		"loop 1b\n\t"
		"movq %[n], %%rcx\n\t"
		"2: add $2, %[out]\n\t"
		"cmp $3, %%rcx\n\t"
		"loopne 2b\n\t"
		"mov $5, %%rcx\n\t"
		"3: add $3, %[out]\n\t"
		"cmp %%rcx, %%rcx\n\t"
		"loope 3b\n\t"
		"jrcxz 4f\n\t"
		"add $100, %[out]\n\t"
		"4: xor %%ecx, %%ecx\n\t"
		"jecxz 5f\n\t"
		"add $1000, %[out]\n\t"
		"5:\n\t"
		: [out] "+r" (out), "+c" (c)
		: [n] "m" (n)
		: "cc");
	return out;
}

static int __attribute__((noinline)) signs(int a, int b)
{
	int r = 0;
	unsigned ua = (unsigned) a, ub = (unsigned) b;

	if (a < b) r += 1;
	if (a <= b) r += 2;
	if (a > b) r += 4;
	if (a >= b) r += 8;
	if (ua < ub) r += 16;
	if (ua > ub) r += 32;
	if (ua <= ub) r += 64;
	if (ua >= ub) r += 128;
	if (__builtin_add_overflow(a, b, &r)) r ^= 0x100;
	if (__builtin_parity(ua)) r ^= 0x200;
	return r;
}

int __attribute__((noinline)) run(int n)
{
	long sum = 0;

	for (int i = 0; i < n; i++)
		for (int j = -3; j < 3; j++)
			sum += signs(i - 5, j * 700000000) & 0x3ff;
	return (int) (sum + hand_loops(n + 1));
}

int main(void)
{
	printf("%d\n", run(20));
	return 0;
}
