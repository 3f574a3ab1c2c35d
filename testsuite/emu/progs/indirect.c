/* Indirect branches in every operand form: register, memory, RIP-relative,
   SIB, fs segment (TLS), notrack and bnd prefixes; function pointers and
   a switch jump table.  */
#include <stdio.h>

typedef int (*op_fn)(int);

static int __attribute__((noinline)) inc(int x) { return x + 1; }
static int __attribute__((noinline)) dbl(int x) { return x * 2; }
static int __attribute__((noinline)) neg(int x) { return -x; }

static op_fn table[3] = { inc, dbl, neg };
op_fn global_fn = dbl;
__thread op_fn tls_fn __attribute__((used));

static int __attribute__((noinline)) jump_table(int k, int x)
{
	switch (k) {
	case 0: return x + 3;
	case 1: return x ^ 5;
	case 2: return x * 7;
	case 3: return x - 11;
	case 4: return x / 3;
	case 5: return x << 2;
	case 6: return x | 64;
	default: return x;
	}
}

static int __attribute__((noinline)) forms(int x)
{
	long r;
	op_fn *base = table;
	long idx = 2;

	/* call *(%base,%idx,8) */
	__asm__ volatile("mov %[x], %%edi\n\tcall *(%[b],%[i],8)"
			 : "=a" (r) : [x] "r" (x), [b] "r" (base), [i] "r" (idx)
			 : "rdi", "rsi", "rdx", "rcx", "r8", "r9", "r10", "r11",
			   "memory", "cc");
	x = (int) r;
	/* call *global_fn(%rip) */
	__asm__ volatile("mov %[x], %%edi\n\tcall *global_fn(%%rip)"
			 : "=a" (r) : [x] "r" (x)
			 : "rdi", "rsi", "rdx", "rcx", "r8", "r9", "r10", "r11",
			   "memory", "cc");
	x = (int) r;
	/* call *%fs:tls_fn@tpoff */
	__asm__ volatile("mov %[x], %%edi\n\tcall *%%fs:tls_fn@tpoff"
			 : "=a" (r) : [x] "r" (x)
			 : "rdi", "rsi", "rdx", "rcx", "r8", "r9", "r10", "r11",
			   "memory", "cc");
	x = (int) r;
	/* notrack call *%reg, bnd call, bnd jmp, bnd ret */
	__asm__ volatile("mov %[x], %%edi\n\tnotrack call *%[f]\n\t"
			 "mov %%eax, %%edi\n\tbnd call *%[f]\n\t"
			 "lea 1f(%%rip), %%rdx\n\tbnd jmp *%%rdx\n\t"
			 "ud2\n"
			 "1:\n\t"
			 : "=a" (r) : [x] "r" (x), [f] "r" (table[0])
			 : "rdi", "rsi", "rdx", "rcx", "r8", "r9", "r10", "r11",
			   "memory", "cc");
	return (int) r;
}

static int __attribute__((noinline)) bnd_ret(int x)
{
	int r;

	__asm__ volatile("call 1f\n\tjmp 2f\n"
			 "1: lea 1(%[x]), %[r]\n\tbnd ret\n"
			 "2:\n\t"
			 : [r] "=&r" (r) : [x] "r" (x) : "memory");
	return r;
}

int __attribute__((noinline)) run(int n)
{
	int x = 1;

	tls_fn = neg;
	for (int i = 0; i < n; i++) {
		x = table[i % 3](x) & 0xffff;
		x = jump_table(i % 9, x);
		x = forms(x) & 0xffff;
		x = bnd_ret(x);
	}
	return x;
}

int main(void)
{
	printf("%d\n", run(12));
	return 0;
}
