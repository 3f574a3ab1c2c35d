/* A JIT: code written into writable+executable memory and run (stepped
   by the emulator), and code written, then made read-only+executable
   with mprotect, then run (cached after the map change).  */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

/* int f(int n) { int s = 0; do s += n; while (--n); return s; } */
static const unsigned char code[] = {
	0x31, 0xc0,             /* xor eax, eax */
	0x01, 0xf8,             /* 1: add eax, edi */
	0xff, 0xcf,             /* dec edi */
	0x75, 0xfa,             /* jnz 1b */
	0xc3,                   /* ret */
};

int __attribute__((noinline)) run(int n)
{
	unsigned char *rwx = mmap(NULL, 4096, PROT_READ | PROT_WRITE |
				  PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned char *wx = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int (*f)(int), (*g)(int), s = 0;

	if (rwx == MAP_FAILED || wx == MAP_FAILED)
		return -1;
	memcpy(rwx, code, sizeof(code));
	f = (int (*)(int)) rwx;
	s += f(n);
	rwx[3] = 0xf8;          /* rewrite in place (same instruction) */
	s += f(n + 1);
	memcpy(wx, code, sizeof(code));
	wx[2] = 0x29;           /* sub instead of add */
	mprotect(wx, 4096, PROT_READ | PROT_EXEC);
	g = (int (*)(int)) wx;
	s += g(n) + g(n + 2);
	return s;
}

int main(void)
{
	printf("%d\n", run(5));
	return 0;
}
