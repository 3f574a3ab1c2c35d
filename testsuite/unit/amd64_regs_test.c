#include <criterion/criterion.h>

#include "nat/amd64_regs.h"
#include "nat/mem.h"
#include "xml/tdesc_amd64.h"
#include "common/ps_buf.h"
#include "common/ps_error.h"
#include "common/ps_hex.h"
#include "testsuite/unit/tracee.h"
#include "testsuite/emu/emu_test_main.h"

#include <asm/prctl.h>
#include <cpuid.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

/* What the child loads before its first int3 and where it stores its
   registers before the second.  The child is a fork of the test, so the
   addresses are the same on both sides.  */
uint64_t regs_in_gpr[16];                 /* tdesc order; rsp unused */
uint8_t regs_in_zmm[32][64] __attribute__((aligned(64)));
uint64_t regs_in_k[8];
uint8_t regs_in_st[6][16];                /* loaded in this order */
uint16_t regs_in_fcw;
uint32_t regs_in_mxcsr;
uint64_t regs_out_gpr[16];
uint8_t regs_out_zmm[32][64] __attribute__((aligned(64)));
uint64_t regs_out_k[8];
uint8_t regs_out_fx[512] __attribute__((aligned(64)));

void regs_child_body(void);
extern const char regs_child_trap1[], regs_child_trap2[];

__asm__(
	".text\n"
	".globl regs_child_body\n"
	".type regs_child_body, @function\n"
	"regs_child_body:\n"
	".irp n,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31\n"
	"	vmovdqu64 regs_in_zmm+64*\\n(%rip), %zmm\\n\n"
	".endr\n"
	".irp n,0,1,2,3,4,5,6,7\n"
	"	kmovq regs_in_k+8*\\n(%rip), %k\\n\n"
	".endr\n"
	"	fninit\n"
	"	fldcw regs_in_fcw(%rip)\n"
	"	ldmxcsr regs_in_mxcsr(%rip)\n"
	".irp n,0,1,2,3,4,5\n"
	"	fldt regs_in_st+16*\\n(%rip)\n"
	".endr\n"
	"	mov regs_in_gpr+8*0(%rip), %rax\n"
	"	mov regs_in_gpr+8*1(%rip), %rbx\n"
	"	mov regs_in_gpr+8*2(%rip), %rcx\n"
	"	mov regs_in_gpr+8*3(%rip), %rdx\n"
	"	mov regs_in_gpr+8*4(%rip), %rsi\n"
	"	mov regs_in_gpr+8*5(%rip), %rdi\n"
	"	mov regs_in_gpr+8*6(%rip), %rbp\n"
	".irp n,8,9,10,11,12,13,14,15\n"
	"	mov regs_in_gpr+8*\\n(%rip), %r\\n\n"
	".endr\n"
	".globl regs_child_trap1\n"
	"regs_child_trap1:\n"
	"	int3\n"
	"	mov %rax, regs_out_gpr+8*0(%rip)\n"
	"	mov %rbx, regs_out_gpr+8*1(%rip)\n"
	"	mov %rcx, regs_out_gpr+8*2(%rip)\n"
	"	mov %rdx, regs_out_gpr+8*3(%rip)\n"
	"	mov %rsi, regs_out_gpr+8*4(%rip)\n"
	"	mov %rdi, regs_out_gpr+8*5(%rip)\n"
	"	mov %rbp, regs_out_gpr+8*6(%rip)\n"
	".irp n,8,9,10,11,12,13,14,15\n"
	"	mov %r\\n, regs_out_gpr+8*\\n(%rip)\n"
	".endr\n"
	".irp n,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31\n"
	"	vmovdqu64 %zmm\\n, regs_out_zmm+64*\\n(%rip)\n"
	".endr\n"
	".irp n,0,1,2,3,4,5,6,7\n"
	"	kmovq %k\\n, regs_out_k+8*\\n(%rip)\n"
	".endr\n"
	"	fxsave64 regs_out_fx(%rip)\n"
	".globl regs_child_trap2\n"
	"regs_child_trap2:\n"
	"	int3\n"
	"	mov $231, %eax\n"          /* exit_group(0) */
	"	xor %edi, %edi\n"
	"	syscall\n"
	".size regs_child_body, .-regs_child_body\n");

/* 80-bit images: 1.0, +0, +inf, a denormal, -2.25, 1.5.  Loaded in this
   order, st0 is the last; by hand (see xstate_test.c) the tag word is
   0x1a0f with TOP 2.  */
static const struct { uint64_t mantissa; uint16_t sign_exp; } st_values[6] = {
	{ 0x8000000000000000ull, 0x3fff }, { 0, 0 },
	{ 0x8000000000000000ull, 0x7fff }, { 0x0000000000000001ull, 0 },
	{ 0x9000000000000000ull, 0xc000 }, { 0xc000000000000000ull, 0x3fff },
};

static int have_avx512(void)
{
	unsigned a, b, c, d, lo, hi;

	if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
		return 0;
	/* AVX512F (bit 16) and BW (bit 30) for kmovq; and the OS must have
	   enabled opmask, ZMM_Hi256 and Hi16_ZMM.  */
	if ((b & (1u << 16 | 1u << 30)) != (1u << 16 | 1u << 30))
		return 0;
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return (lo & 0xe6) == 0xe6;
}

static uint64_t host_xcr0(void)
{
	unsigned lo, hi;

	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return (uint64_t) hi << 32 | lo;
}

static void fill_inputs(void)
{
	for (unsigned i = 0; i < 16; i++)
		regs_in_gpr[i] = 0x9e3779b97f4a7c15ull * (i + 1) ^ (uint64_t) i << 56;
	for (unsigned n = 0; n < 32; n++)
		for (unsigned j = 0; j < 64; j++)
			regs_in_zmm[n][j] = (uint8_t) (n * 131 + j * 7 + 1);
	for (unsigned i = 0; i < 8; i++)
		regs_in_k[i] = 0x0f1e2d3c4b5a6978ull * (i + 3);
	for (unsigned i = 0; i < 6; i++) {
		memset(regs_in_st[i], 0, 16);
		memcpy(regs_in_st[i], &st_values[i].mantissa, 8);
		memcpy(regs_in_st[i] + 8, &st_values[i].sign_exp, 2);
	}
	regs_in_fcw = 0x027f;
	regs_in_mxcsr = 0x9fc0;    /* FZ, DAZ, all exceptions masked */
}

static int regno(const struct amd64_regs *regs, const char *name)
{
	int n = tdesc_amd64_regno(amd64_regs_xcr0(regs), name);

	cr_assert_geq(n, 0, "no register %s", name);
	return n;
}

/* Read NAME, asserting its size; returns its value's first 8 bytes.  */
static uint64_t read_reg(const struct amd64_regs *regs, const char *name,
			 void *out, size_t size)
{
	uint8_t buf[64];
	uint64_t v = 0;
	int n = amd64_regs_read(regs, (unsigned) regno(regs, name), buf,
				sizeof(buf));

	cr_assert_eq(n, (int) size, "%s: size %d", name, n);
	if (out)
		memcpy(out, buf, size);
	memcpy(&v, buf, size < 8 ? size : 8);
	return v;
}

static void write_reg(struct amd64_regs *regs, const char *name,
		      const void *in, size_t size)
{
	cr_assert_eq(amd64_regs_write(regs, (unsigned) regno(regs, name), in,
				      size), 0, "write %s", name);
}

static void cont_to_trap(pid_t pid)
{
	int status;

	cr_assert_eq(ptrace(PTRACE_CONT, pid, 0, 0), 0);
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFSTOPPED(status) && WSTOPSIG(status) == SIGTRAP,
		  "status %#x", status);
}

/* The child dies with its tracer rather than run on untraced.  */
static void child_main(void)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	regs_child_body();
}

static pid_t start_loaded_child(void)
{
	pid_t pid;

	fill_inputs();
	pid = tracee_start(child_main);
	cr_assert_gt(pid, 0);
	cont_to_trap(pid);
	return pid;
}

Test(amd64_regs, fetch_reads_every_loaded_value)
{
	static const char *gpr_names[16] = {
		"rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", NULL,
		"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
	};
	struct amd64_regs regs;
	uint8_t v[64];
	char name[16];
	uint64_t fs = 0, xcr0 = 0;
	pid_t pid;

	if (!have_avx512()) {
		printf("SKIP: no AVX-512 here; the loader uses zmm and k\n");
		cr_skip_test("no AVX-512");
	}
	syscall(SYS_arch_prctl, ARCH_GET_FS, &fs);
	pid = start_loaded_child();
	cr_assert_eq(amd64_regs_fetch(&regs, pid), 0);
	cr_assert_eq(amd64_host_xcr0(pid, &xcr0), 0);
	cr_assert_eq(amd64_regs_xcr0(&regs), xcr0);
	cr_assert_eq(xcr0 & 0x2ff, host_xcr0() & 0x2ff);

	for (unsigned i = 0; i < 16; i++)
		if (gpr_names[i])
			cr_assert_eq(read_reg(&regs, gpr_names[i], NULL, 8),
				     regs_in_gpr[i], "%s", gpr_names[i]);
	cr_assert_eq(read_reg(&regs, "rip", NULL, 8),
		     (uint64_t) regs_child_trap1 + 1);
	cr_assert_eq(amd64_regs_pc(&regs), (uint64_t) regs_child_trap1 + 1);
	cr_assert_eq(read_reg(&regs, "rsp", NULL, 8), amd64_regs_sp(&regs));
	cr_assert(read_reg(&regs, "eflags", NULL, 4) & 0x200);   /* IF */
	cr_assert_eq(read_reg(&regs, "cs", NULL, 4), regs.gpr.cs);
	cr_assert_eq(read_reg(&regs, "fs_base", NULL, 8), fs);
	cr_assert_eq(read_reg(&regs, "orig_rax", NULL, 8), (uint64_t) -1);

	for (unsigned n = 0; n < 32; n++) {
		snprintf(name, sizeof(name), "xmm%u", n);
		read_reg(&regs, name, v, 16);
		cr_assert_arr_eq(v, regs_in_zmm[n], 16, "%s", name);
		snprintf(name, sizeof(name), "ymm%uh", n);
		read_reg(&regs, name, v, 16);
		cr_assert_arr_eq(v, regs_in_zmm[n] + 16, 16, "%s", name);
		snprintf(name, sizeof(name), "zmm%uh", n);
		read_reg(&regs, name, v, 32);
		cr_assert_arr_eq(v, regs_in_zmm[n] + 32, 32, "%s", name);
	}
	for (unsigned i = 0; i < 8; i++) {
		snprintf(name, sizeof(name), "k%u", i);
		cr_assert_eq(read_reg(&regs, name, NULL, 8), regs_in_k[i]);
	}
	for (unsigned i = 0; i < 6; i++) {
		snprintf(name, sizeof(name), "st%u", i);
		read_reg(&regs, name, v, 10);
		cr_assert_arr_eq(v, regs_in_st[5 - i], 10, "%s", name);
	}
	cr_assert_eq(read_reg(&regs, "fctrl", NULL, 4), regs_in_fcw);
	cr_assert_eq((read_reg(&regs, "fstat", NULL, 4) >> 11) & 7, 2);
	cr_assert_eq(read_reg(&regs, "ftag", NULL, 4), 0x1a0f);
	cr_assert_eq(read_reg(&regs, "mxcsr", NULL, 4), regs_in_mxcsr);
	tracee_kill(pid);
}

Test(amd64_regs, writes_reach_the_child)
{
	static const uint8_t st0[10] = { 0, 0, 0, 0, 0, 0, 0, 0xc0, 0x00, 0xc0 };
	struct amd64_regs regs, again;
	struct nat_mem mem;
	uint64_t rax = 5, k1 = 0x5a5a, out_gpr[16], out_k[8];
	uint32_t fctrl = 0x037f, mxcsr = 0x1f80, ftag;
	uint8_t xmm0[16], ymm0h[16], zmm31h[32], xmm31[16];
	uint8_t out_zmm[32][64], fx[512];
	pid_t pid;

	if (!have_avx512()) {
		printf("SKIP: no AVX-512 here; the loader uses zmm and k\n");
		cr_skip_test("no AVX-512");
	}
	pid = start_loaded_child();
	cr_assert_eq(amd64_regs_fetch(&regs, pid), 0);
	for (unsigned i = 0; i < 16; i++) {
		xmm0[i] = (uint8_t) (0xa0 + i);
		ymm0h[i] = (uint8_t) (0xb0 + i);
		xmm31[i] = (uint8_t) (0xc0 + i);
	}
	for (unsigned i = 0; i < 32; i++)
		zmm31h[i] = (uint8_t) (0xd0 + i);

	write_reg(&regs, "rax", &rax, 8);
	write_reg(&regs, "xmm0", xmm0, 16);
	write_reg(&regs, "ymm0h", ymm0h, 16);
	write_reg(&regs, "xmm31", xmm31, 16);
	write_reg(&regs, "zmm31h", zmm31h, 32);
	write_reg(&regs, "k1", &k1, 8);
	write_reg(&regs, "st0", st0, 10);
	write_reg(&regs, "fctrl", &fctrl, 4);
	write_reg(&regs, "mxcsr", &mxcsr, 4);
	/* st7 (physical register 1) was empty; marking it valid sets its
	   abridged tag bit.  */
	ftag = 0x1a0f & ~(3u << 2);
	write_reg(&regs, "ftag", &ftag, 4);
	cr_assert(regs.gpr_dirty && regs.xsave_dirty);
	cr_assert_eq(amd64_regs_store(&regs, pid), 0);
	cr_assert_not(regs.gpr_dirty || regs.xsave_dirty);

	cont_to_trap(pid);
	nat_mem_init(&mem, pid);
	cr_assert_eq(nat_mem_read(&mem, (uint64_t) regs_out_gpr, out_gpr,
				  sizeof(out_gpr)), (long) sizeof(out_gpr));
	cr_assert_eq(nat_mem_read(&mem, (uint64_t) regs_out_zmm, out_zmm,
				  sizeof(out_zmm)), (long) sizeof(out_zmm));
	cr_assert_eq(nat_mem_read(&mem, (uint64_t) regs_out_k, out_k,
				  sizeof(out_k)), (long) sizeof(out_k));
	cr_assert_eq(nat_mem_read(&mem, (uint64_t) regs_out_fx, fx,
				  sizeof(fx)), (long) sizeof(fx));
	nat_mem_fini(&mem);

	cr_assert_eq(out_gpr[0], 5);
	cr_assert_eq(out_gpr[1], regs_in_gpr[1]);
	cr_assert_arr_eq(out_zmm[0], xmm0, 16);
	cr_assert_arr_eq(out_zmm[0] + 16, ymm0h, 16);
	cr_assert_arr_eq(out_zmm[0] + 32, regs_in_zmm[0] + 32, 32);
	cr_assert_arr_eq(out_zmm[31], xmm31, 16);
	cr_assert_arr_eq(out_zmm[31] + 16, regs_in_zmm[31] + 16, 16);
	cr_assert_arr_eq(out_zmm[31] + 32, zmm31h, 32);
	cr_assert_arr_eq(out_zmm[5], regs_in_zmm[5], 64);
	cr_assert_eq(out_k[1], k1);
	cr_assert_eq(out_k[2], regs_in_k[2]);
	cr_assert_arr_eq(fx + fxsave_st, st0, 10);
	cr_assert_arr_eq(fx + fxsave_st + 16, regs_in_st[4], 10);
	cr_assert_eq(fx[fxsave_fcw] | fx[fxsave_fcw + 1] << 8, 0x037f);
	cr_assert_eq(fx[fxsave_ftw], 0xfe);
	cr_assert_eq(xstate_load64(fx + fxsave_mxcsr) & 0xffffffff, 0x1f80);

	/* And a fresh fetch sees the same.  */
	cr_assert_eq(amd64_regs_fetch(&again, pid), 0);
	cr_assert_eq(read_reg(&again, "rax", NULL, 8), 5);
	cr_assert_eq(read_reg(&again, "k1", NULL, 8), k1);
	cr_assert_eq(read_reg(&again, "fctrl", NULL, 4), 0x037f);
	cr_assert_eq(amd64_regs_pc(&again), (uint64_t) regs_child_trap2 + 1);
	tracee_kill(pid);
}

Test(amd64_regs, g_and_G_packets)
{
	struct amd64_regs regs;
	struct ps_buf g;
	unsigned n, off = 0;
	pid_t pid = tracee_start(NULL);
	uint8_t *bytes;
	size_t total = 0;

	cr_assert_gt(pid, 0);
	cr_assert_eq(amd64_regs_fetch(&regs, pid), 0);
	n = tdesc_amd64_nregs(amd64_regs_xcr0(&regs));
	for (unsigned r = 0; r < n; r++)
		total += tdesc_amd64_reg(amd64_regs_xcr0(&regs), r)->bitsize / 8;

	ps_buf_init(&g);
	cr_assert_eq(amd64_regs_g_packet(&regs, &g), 0);
	cr_assert_eq(g.len, 2 * total);
	bytes = malloc(total);
	cr_assert_eq(ps_hex_decode(bytes, g.data, total), 0);
	for (unsigned r = 0; r < n; r++) {
		uint8_t v[64];
		int len = amd64_regs_read(&regs, r, v, sizeof(v));

		cr_assert_gt(len, 0);
		cr_assert_arr_eq(bytes + off, v, (size_t) len, "regno %u", r);
		off += (unsigned) len;
	}
	cr_assert_eq(memcmp(bytes + 16 * 8, &regs.gpr.rip, 8), 0);

	/* The same payload back changes nothing.  */
	cr_assert_eq(amd64_regs_G_packet(&regs, g.data, g.len), 0);
	cr_assert_not(regs.gpr_dirty || regs.xsave_dirty);

	/* Bad payloads: wrong length, a non-hex digit; nothing changes.  */
	cr_assert_eq(amd64_regs_G_packet(&regs, g.data, g.len - 2), -pse_invalid);
	g.data[g.len - 1] = 'z';
	g.data[0] = 'f';
	cr_assert_eq(amd64_regs_G_packet(&regs, g.data, g.len), -pse_invalid);
	cr_assert_not(regs.gpr_dirty || regs.xsave_dirty);
	cr_assert_eq(memcmp(bytes, &regs.gpr.rax, 8), 0);

	/* rax := 0x...1122 and st1's first byte := 0x77: both reach the
	   image they belong to.  */
	ps_buf_reset(&g);
	cr_assert_eq(amd64_regs_g_packet(&regs, &g), 0);
	off = 0;
	for (unsigned r = 0; r < 25; r++)
		off += tdesc_amd64_reg(amd64_regs_xcr0(&regs), r)->bitsize / 8;
	ps_hex_encode(g.data, "\x22\x11", 2);
	ps_hex_encode(g.data + 2 * off, "\x77", 1);
	cr_assert_eq(amd64_regs_G_packet(&regs, g.data, g.len), 0);
	cr_assert(regs.gpr_dirty && regs.xsave_dirty);
	cr_assert_eq(regs.gpr.rax & 0xffff, 0x1122);
	{
		uint8_t st1[10];

		cr_assert_eq(amd64_regs_read(&regs, 25, st1, sizeof(st1)), 10);
		cr_assert_eq(st1[0], 0x77);
	}
	cr_assert_eq(amd64_regs_store(&regs, pid), 0);
	free(bytes);
	ps_buf_fini(&g);
	tracee_kill(pid);
}

Test(amd64_regs, bad_numbers_and_sizes)
{
	struct amd64_regs regs;
	uint8_t v[64] = { 0 };
	pid_t pid = tracee_start(NULL);
	unsigned n;

	cr_assert_gt(pid, 0);
	amd64_regs_init(&regs);
	cr_assert_eq(amd64_regs_read(&regs, 0, v, sizeof(v)), -pse_invalid);
	cr_assert_eq(amd64_regs_fetch(&regs, pid), 0);
	n = tdesc_amd64_nregs(amd64_regs_xcr0(&regs));
	cr_assert_eq(amd64_regs_read(&regs, n, v, sizeof(v)), -pse_range);
	cr_assert_eq(amd64_regs_read(&regs, 100000, v, sizeof(v)), -pse_range);
	cr_assert_eq(amd64_regs_write(&regs, n, v, 8), -pse_range);
	cr_assert_eq(amd64_regs_read(&regs, 0, v, 4), -pse_invalid);
	cr_assert_eq(amd64_regs_write(&regs, 0, v, 4), -pse_invalid);
	cr_assert_eq(amd64_regs_write(&regs, 17, v, 8), -pse_invalid);  /* eflags */
	cr_assert_not(regs.gpr_dirty || regs.xsave_dirty);

	amd64_regs_set_pc(&regs, 0x1234);
	cr_assert_eq(amd64_regs_read(&regs, 16, v, sizeof(v)), 8);
	cr_assert_eq(xstate_load64(v), 0x1234);
	amd64_regs_set_sp(&regs, 0x5678);
	cr_assert_eq(amd64_regs_sp(&regs), 0x5678);
	cr_assert(regs.gpr_dirty);
	cr_assert_eq(amd64_regs_fetch(&regs, 999999), -pse_nothread);
	tracee_kill(pid);
}

/* A component whose XSTATE_BV bit is clear reads as its init state
   whatever stale bytes the image holds, and writing one register of it
   initializes the rest and sets the bit; the kernel accepts the result.  */
Test(amd64_regs, init_state_components)
{
	struct amd64_regs regs;
	uint8_t *x, v[64], st0[10] = { 1, 2, 3, 4, 5, 6, 7, 0x80, 0xff, 0x3f };
	uint64_t bv, k2 = 0x77, xcr0;
	uint32_t stale = 0x1234;
	unsigned ko;
	pid_t pid = tracee_start(NULL);

	cr_assert_gt(pid, 0);
	cr_assert_eq(amd64_regs_fetch(&regs, pid), 0);
	cr_assert(regs.has_xstate);
	x = (uint8_t *) regs.xsave;
	xcr0 = amd64_regs_xcr0(&regs);

	/* x87 */
	bv = xstate_load64(x + xstate_header_bv) & ~1ull;
	xstate_store64(x + xstate_header_bv, bv);
	memset(x, 0x5a, 24);
	memset(x + fxsave_st, 0x5a, 128);
	cr_assert_eq(read_reg(&regs, "fctrl", NULL, 4), 0x037f);
	cr_assert_eq(read_reg(&regs, "ftag", NULL, 4), 0xffff);
	cr_assert_eq(read_reg(&regs, "fop", NULL, 4), 0);
	cr_assert_eq(read_reg(&regs, "st3", NULL, 10), 0);
	write_reg(&regs, "st0", st0, 10);
	cr_assert(xstate_load64(x + xstate_header_bv) & 1);
	cr_assert_eq(read_reg(&regs, "fctrl", NULL, 4), 0x037f);
	cr_assert_eq(read_reg(&regs, "fstat", NULL, 4), 0);
	cr_assert_eq(read_reg(&regs, "st1", NULL, 10), 0);

	/* SSE and AVX: mxcsr shows its init value while both are clear.  */
	bv = xstate_load64(x + xstate_header_bv) & ~6ull;
	xstate_store64(x + xstate_header_bv, bv);
	memcpy(x + fxsave_mxcsr, &stale, 4);
	memset(x + fxsave_xmm, 0x5a, 256);
	cr_assert_eq(read_reg(&regs, "mxcsr", NULL, 4), 0x1f80);
	read_reg(&regs, "xmm5", v, 16);
	cr_assert_eq(memcmp(v, (uint8_t[16]) { 0 }, 16), 0);
	if (xcr0 & 4) {
		memset(x + regs.layout.offset[2], 0x5a, regs.layout.size[2]);
		memset(v, 0x42, 16);
		write_reg(&regs, "ymm5h", v, 16);
		cr_assert_eq(xstate_load64(x + xstate_header_bv) & 6, 4);
		cr_assert_eq(read_reg(&regs, "mxcsr", NULL, 4), 0x1f80);
		cr_assert_eq(read_reg(&regs, "ymm4h", NULL, 16), 0);
		cr_assert_eq(read_reg(&regs, "xmm5", NULL, 16), 0);
	}

	/* Opmask: stale k3 reads 0; writing k2 zeroes the rest.  */
	if (xcr0 & 0x20) {
		ko = regs.layout.offset[5];
		bv = xstate_load64(x + xstate_header_bv) & ~0x20ull;
		xstate_store64(x + xstate_header_bv, bv);
		memset(x + ko, 0xa5, 64);
		cr_assert_eq(read_reg(&regs, "k3", NULL, 8), 0);
		write_reg(&regs, "k2", &k2, 8);
		cr_assert(xstate_load64(x + xstate_header_bv) & 0x20);
		cr_assert_eq(read_reg(&regs, "k3", NULL, 8), 0);
		cr_assert_eq(read_reg(&regs, "k2", NULL, 8), k2);
	}

	cr_assert_eq(amd64_regs_store(&regs, pid), 0);
	cr_assert_eq(amd64_regs_fetch(&regs, pid), 0);
	read_reg(&regs, "st0", v, 10);
	cr_assert_arr_eq(v, st0, 10);
	cr_assert_eq(read_reg(&regs, "fctrl", NULL, 4), 0x037f);
	cr_assert_eq(read_reg(&regs, "mxcsr", NULL, 4), 0x1f80);
	if (xcr0 & 4)
		cr_assert_eq(read_reg(&regs, "ymm5h", NULL, 16), 0x4242424242424242ull);
	if (xcr0 & 0x20) {
		cr_assert_eq(read_reg(&regs, "k2", NULL, 8), k2);
		cr_assert_eq(read_reg(&regs, "k3", NULL, 8), 0);
	}
	tracee_kill(pid);
}

static void exec_true(void)
{
	execl("/bin/true", "true", (char *) NULL);
}

/* A fresh exec starts from the init state: what gdbserver shows there.  */
Test(amd64_regs, after_exec_everything_is_init)
{
	struct amd64_regs regs;
	uint8_t v[64], zero[64] = { 0 };
	unsigned n;
	pid_t pid = tracee_start(exec_true);

	cr_assert_gt(pid, 0);
	cont_to_trap(pid);
	cr_assert_eq(amd64_regs_fetch(&regs, pid), 0);
	cr_assert_eq(read_reg(&regs, "fctrl", NULL, 4), 0x037f);
	cr_assert_eq(read_reg(&regs, "ftag", NULL, 4), 0xffff);
	cr_assert_eq(read_reg(&regs, "mxcsr", NULL, 4), 0x1f80);
	cr_assert_eq(read_reg(&regs, "orig_rax", NULL, 8), 59);   /* execve */
	n = tdesc_amd64_nregs(amd64_regs_xcr0(&regs));
	for (unsigned r = tdesc_amd64_regno(amd64_regs_xcr0(&regs), "xmm0");
	     r < n; r++) {
		const struct tdesc_reg *d = tdesc_amd64_reg(amd64_regs_xcr0(&regs), r);
		int len = amd64_regs_read(&regs, r, v, sizeof(v));

		if (!strcmp(d->name, "mxcsr") || d->cls == tdesc_orig_rax ||
		    d->cls == tdesc_seg_base)
			continue;
		cr_assert_eq(len, (int) d->bitsize / 8);
		cr_assert_arr_eq(v, zero, (size_t) len, "%s", d->name);
	}
	tracee_kill(pid);
}

/* MPX and PKRU are not on this machine: give the cache an image as a
   kernel with them would (Intel's standard offsets) and check that their
   registers land where the XSAVE layout says, in their components.  */
Test(amd64_regs, mpx_and_pkru_storage)
{
	struct amd64_regs *regs = calloc(1, sizeof(*regs));
	uint8_t *x = (uint8_t *) regs->xsave, v[16], bnd1[16];
	uint64_t status = 0x2, xcr0 = 0x2ff;
	uint32_t pkru = 0x55555554;
	struct ps_buf g;
	size_t total = 0;

	amd64_regs_init(regs);
	regs->valid = regs->has_xstate = true;
	regs->xcr0 = xcr0;
	regs->xsave_len = 2696;
	regs->layout.offset[2] = 576, regs->layout.size[2] = 256;
	regs->layout.offset[3] = 960, regs->layout.size[3] = 64;
	regs->layout.offset[4] = 1024, regs->layout.size[4] = 16;
	regs->layout.offset[5] = 1088, regs->layout.size[5] = 64;
	regs->layout.offset[6] = 1152, regs->layout.size[6] = 512;
	regs->layout.offset[7] = 1664, regs->layout.size[7] = 1024;
	regs->layout.offset[9] = 2688, regs->layout.size[9] = 8;
	memset(x + 960, 0xee, 80);             /* stale, components clear */
	memset(x + 2688, 0xee, 8);

	cr_assert_eq(read_reg(regs, "bnd0raw", v, 16), 0);
	cr_assert_eq(read_reg(regs, "pkru", NULL, 4), 0);
	for (unsigned i = 0; i < 16; i++)
		bnd1[i] = (uint8_t) (i + 1);
	write_reg(regs, "bnd1raw", bnd1, 16);
	write_reg(regs, "bndstatus", &status, 8);
	write_reg(regs, "pkru", &pkru, 4);
	cr_assert_eq(xstate_load64(x + xstate_header_bv), 0x218);
	cr_assert_arr_eq(x + 960 + 16, bnd1, 16);
	cr_assert_eq(xstate_load64(x + 960), 0);      /* bnd0 initialized */
	cr_assert_eq(xstate_load64(x + 1024 + 8), status);
	cr_assert_eq(xstate_load64(x + 1024), 0);     /* bndcfgu */
	cr_assert_eq(xstate_load64(x + 2688) & 0xffffffff, pkru);
	read_reg(regs, "bnd1raw", v, 16);
	cr_assert_arr_eq(v, bnd1, 16);
	cr_assert_eq(read_reg(regs, "pkru", NULL, 4), pkru);
	cr_assert(regs->xsave_dirty && !regs->gpr_dirty);

	for (unsigned r = 0; r < tdesc_amd64_nregs(xcr0); r++)
		total += tdesc_amd64_reg(xcr0, r)->bitsize / 8;
	ps_buf_init(&g);
	cr_assert_eq(amd64_regs_g_packet(regs, &g), 0);
	cr_assert_eq(g.len, 2 * total);
	/* pkru is last */
	cr_assert_str_eq(g.data + g.len - 8, "54555555");
	ps_buf_fini(&g);
	free(regs);
}
