/* Says whether this CPU's XSAVE layout is the fixed one GDB 13 assumes
   (Intel's: opmask at 1088, ZMM_Hi256 at 1152, Hi16_ZMM at 1664) or
   another one (AMD's compacts it when MPX is absent).  gdbserver 13
   reads AVX-512 registers at the fixed offsets, so on other layouts its
   k, zmm and x/ymm16-31 values are wrong and cannot be a reference.
   Prints "fixed", "other" or "none" (no AVX-512 state); exits 0.  */
#include <cpuid.h>
#include <stdio.h>

int main(void)
{
	static const unsigned fixed[3] = { 1088, 1152, 1664 };
	unsigned a, b, c, d;

	if (!__get_cpuid_count(0xd, 0, &a, &b, &c, &d) || (a & 0xe0) != 0xe0) {
		puts("none");
		return 0;
	}
	for (unsigned comp = 5; comp <= 7; comp++) {
		__get_cpuid_count(0xd, comp, &a, &b, &c, &d);
		if (b != fixed[comp - 5]) {
			printf("other\n");
			return 0;
		}
	}
	puts("fixed");
	return 0;
}
