/* Loads known values into every register GDB shows (GPRs but rsp,
   eflags, x87 stack and control, MXCSR, zmm0-31, k0-7) and reaches
   regs_loaded, where GDB stops to compare what ptstub and gdbserver
   report.  Exits 2 when the CPU has no AVX-512.  */
#include <cpuid.h>
#include <stdint.h>
#include <string.h>

uint64_t regs_gpr[16];
uint8_t regs_zmm[32][64] __attribute__((aligned(64)));
uint64_t regs_k[8];
uint8_t regs_st[6][16];
uint16_t regs_fcw = 0x027f;
uint32_t regs_mxcsr = 0x9fc0;

void regs_load(void);

__asm__(
	".text\n"
	".globl regs_load\n"
	".type regs_load, @function\n"
	"regs_load:\n"
	".irp n,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31\n"
	"	vmovdqu64 regs_zmm+64*\\n(%rip), %zmm\\n\n"
	".endr\n"
	".irp n,0,1,2,3,4,5,6,7\n"
	"	kmovq regs_k+8*\\n(%rip), %k\\n\n"
	".endr\n"
	"	fninit\n"
	"	fldcw regs_fcw(%rip)\n"
	"	ldmxcsr regs_mxcsr(%rip)\n"
	".irp n,0,1,2,3,4,5\n"
	"	fldt regs_st+16*\\n(%rip)\n"
	".endr\n"
	"	pushq $0x0a97\n"            /* CF PF AF SF IF OF, and bit 1 */
	"	popfq\n"
	"	mov regs_gpr+8*0(%rip), %rax\n"
	"	mov regs_gpr+8*1(%rip), %rbx\n"
	"	mov regs_gpr+8*2(%rip), %rcx\n"
	"	mov regs_gpr+8*3(%rip), %rdx\n"
	"	mov regs_gpr+8*4(%rip), %rsi\n"
	"	mov regs_gpr+8*5(%rip), %rdi\n"
	"	mov regs_gpr+8*6(%rip), %rbp\n"
	".irp n,8,9,10,11,12,13,14,15\n"
	"	mov regs_gpr+8*\\n(%rip), %r\\n\n"
	".endr\n"
	".globl regs_loaded\n"
	"regs_loaded:\n"
	"	nop\n"
	"	nop\n"
	"	mov $231, %eax\n"                /* exit_group(0) */
	"	xor %edi, %edi\n"
	"	syscall\n"
	".size regs_load, .-regs_load\n");

/* 80-bit images: 1.0, +0, +inf, a denormal, -2.25, 1.5.  */
static const struct { uint64_t mantissa; uint16_t sign_exp; } st_values[6] = {
	{ 0x8000000000000000ull, 0x3fff }, { 0, 0 },
	{ 0x8000000000000000ull, 0x7fff }, { 0x0000000000000001ull, 0 },
	{ 0x9000000000000000ull, 0xc000 }, { 0xc000000000000000ull, 0x3fff },
};

int main(void)
{
	unsigned a, b, c, d;

	if (!__get_cpuid_count(7, 0, &a, &b, &c, &d) ||
	    (b & (1u << 16 | 1u << 30)) != (1u << 16 | 1u << 30))
		return 2;
	for (unsigned i = 0; i < 16; i++)
		regs_gpr[i] = 0x9e3779b97f4a7c15ull * (i + 1) ^ (uint64_t) i << 56;
	for (unsigned n = 0; n < 32; n++)
		for (unsigned j = 0; j < 64; j++)
			regs_zmm[n][j] = (uint8_t) (n * 131 + j * 7 + 1);
	for (unsigned i = 0; i < 8; i++)
		regs_k[i] = 0x0f1e2d3c4b5a6978ull * (i + 3);
	for (unsigned i = 0; i < 6; i++) {
		memcpy(regs_st[i], &st_values[i].mantissa, 8);
		memcpy(regs_st[i] + 8, &st_values[i].sign_exp, 2);
	}
	regs_load();
	return 0;
}
