/* PLT entry names against GDB's own: for each entry of bt_prog's PLT
   sections, `info symbol` in GDB and bt_plt_scan must agree.  */
#define _GNU_SOURCE
#include "btrace/bt_plt.h"
#include "btrace/bt_msym_name.h"
#include "btrace/ptbtrace.h"
#include "testsuite/btrace/bt_corpus_main.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct bt_corpus corpus;
BT_CORPUS_TEST_MAIN(bt_plt, corpus)

struct found {
	uint64_t address[32];
	char *name[32];
	size_t n;
};

static int add(void *ctx, uint64_t address, uint32_t shndx, const char *name)
{
	struct found *f = ctx;

	(void) shndx;
	if (f->n < 32) {
		f->address[f->n] = address;
		f->name[f->n] = strdup(name);
		f->n += 1;
	}
	return 0;
}

static Elf *open_prog(int *fd)
{
	elf_version(EV_CURRENT);
	*fd = open(corpus.prog, O_RDONLY);
	cr_assert_geq(*fd, 0);
	return elf_begin(*fd, ELF_C_READ, NULL);
}

Test(bt_plt, entries_are_named_as_gdb_names_them)
{
	const char *gdb = getenv("GDB");
	struct found f = { { 0 }, { 0 }, 0 };
	char *cmd = NULL, line[1024];
	size_t len = 0;
	FILE *out, *in;
	Elf *elf;
	int fd;

	if (!gdb || !gdb[0] || strcmp(gdb, "no") == 0)
		cr_skip_test("GDB is not available as the oracle");
	elf = open_prog(&fd);
	cr_assert_eq(bt_plt_scan(elf, add, &f), 0);
	elf_end(elf);
	close(fd);
	/* Debian's PIE start files call __cxa_finalize through the PLT.  */
	cr_assert_gt(f.n, 0, "no PLT entries found");

	out = open_memstream(&cmd, &len);
	fprintf(out, "'%s' -nx -batch", gdb);
	for (size_t i = 0; i < f.n; ++i)
		fprintf(out, " -ex 'info symbol 0x%llx'",
			(unsigned long long) f.address[i]);
	fprintf(out, " '%s' 2>/dev/null", corpus.prog);
	fclose(out);

	in = popen(cmd, "r");
	cr_assert_not_null(in);
	for (size_t i = 0; i < f.n; ++i) {
		char want[300];

		cr_assert_not_null(fgets(line, sizeof(line), in), "entry %zu", i);
		/* "NAME in section .plt.got": the entry's start, no offset.  */
		snprintf(want, sizeof(want), "%s@plt in section ", f.name[i]);
		cr_assert(strncmp(line, want, strlen(want)) == 0,
			  "GDB: %s, we: %s@plt", line, f.name[i]);
		free(f.name[i]);
	}
	pclose(in);
	free(cmd);
}

static int fail_add(void *ctx, uint64_t address, uint32_t shndx,
		    const char *name)
{
	(void) ctx; (void) address; (void) shndx; (void) name;
	return -bte_nomem;
}

Test(bt_plt, the_callbacks_error_stops_the_scan)
{
	Elf *elf;
	int fd;

	elf = open_prog(&fd);
	cr_assert_eq(bt_plt_scan(elf, fail_add, NULL), -bte_nomem);
	elf_end(elf);
	close(fd);
}

/* IRELATIVE slots have no symbol: BFD (so GDB) names their entries by
   the addend, "*ABS*+0x9bd00@plt".  Checked against `nm --synthetic` on
   the C library, which has such entries for its ifuncs.  */
struct abs_found {
	uint64_t address[512];
	char name[512][40];
	size_t n;
};

static int add_abs(void *ctx, uint64_t address, uint32_t shndx,
		   const char *name)
{
	struct abs_found *f = ctx;

	(void) shndx;
	if (f->n < 512 && strncmp(name, "*ABS*", 5) == 0) {
		f->address[f->n] = address;
		snprintf(f->name[f->n], sizeof(f->name[0]), "%s@plt", name);
		f->n += 1;
	}
	return 0;
}

Test(bt_plt, irelative_entries_are_named_by_their_addend)
{
	static const char libc[] = "/lib/x86_64-linux-gnu/libc.so.6";
	static struct abs_found f;
	char line[512];
	unsigned checked = 0;
	FILE *nm;
	Elf *elf;
	int fd;

	if (access(libc, R_OK) != 0)
		cr_skip_test("no %s", libc);
	nm = popen("nm -D --synthetic /lib/x86_64-linux-gnu/libc.so.6 2>/dev/null",
		   "r");
	cr_assert_not_null(nm);
	elf_version(EV_CURRENT);
	fd = open(libc, O_RDONLY);
	cr_assert_geq(fd, 0);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	cr_assert_eq(bt_plt_scan(elf, add_abs, &f), 0);
	elf_end(elf);
	close(fd);
	while (fgets(line, sizeof(line), nm)) {
		unsigned long long address;
		char name[128];
		size_t k;

		if (sscanf(line, "%llx %*s %127s", &address, name) != 2 ||
		    strncmp(name, "*ABS*", 5) != 0)
			continue;
		for (k = 0; k < f.n && f.address[k] != address; k++)
			;
		cr_assert_lt(k, f.n, "no entry at %llx (%s)", address, name);
		cr_assert_str_eq(f.name[k], name);
		checked++;
	}
	pclose(nm);
	if (!checked)
		cr_skip_test("nm lists no *ABS* PLT entries in %s", libc);
}

/* GOT slots filled through the PLT: GDB's data symbols "NAME@got.plt"
   (elf_rel_plt_read), against `info symbol` on libc's slots.  */
Test(bt_plt, got_plt_slots_are_named_as_gdb_names_them)
{
	static const char libc[] = "/lib/x86_64-linux-gnu/libc.so.6";
	const char *gdb = getenv("GDB");
	struct found f = { { 0 }, { 0 }, 0 };
	char *cmd = NULL, line[1024];
	size_t len = 0;
	FILE *out, *in;
	Elf *elf;
	int fd;

	if (!gdb || !gdb[0] || strcmp(gdb, "no") == 0)
		cr_skip_test("GDB is not available as the oracle");
	fd = open(libc, O_RDONLY);
	if (fd < 0)
		cr_skip_test("no %s", libc);
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	cr_assert_eq(bt_got_plt_scan(elf, add, &f), 0);
	elf_end(elf);
	close(fd);
	cr_assert_gt(f.n, 0, "no GOT slots found");

	out = open_memstream(&cmd, &len);
	fprintf(out, "'%s' -nx -batch", gdb);
	for (size_t i = 0; i < f.n; ++i)
		fprintf(out, " -ex 'info symbol 0x%llx'",
			(unsigned long long) f.address[i]);
	fprintf(out, " '%s' 2>/dev/null", libc);
	fclose(out);
	in = popen(cmd, "r");
	cr_assert_not_null(in);
	for (size_t i = 0; i < f.n; ++i) {
		char want[300];

		char pn[300];

		cr_assert_not_null(fgets(line, sizeof(line), in), "slot %zu", i);
		/* info symbol prints the print name (GDB decodes "@got.plt"
		   to "@got[plt]"); disassembly the linkage name.  */
		snprintf(want, sizeof(want), "%s in section ",
			 bt_msym_print_name(f.name[i], pn, sizeof(pn)));
		cr_assert(strncmp(line, want, strlen(want)) == 0,
			  "GDB: %s, we: %s", line, f.name[i]);
		free(f.name[i]);
	}
	pclose(in);
	free(cmd);
}
