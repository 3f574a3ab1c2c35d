/* The btrace test corpus: bt_prog's real addresses (libelf, Zydis) and
   PT traces encoded with libipt that follow its control flow.  */
#include "testsuite/btrace/bt_corpus.h"

#include <Zydis/Zydis.h>
#include <fcntl.h>
#include <gelf.h>
#include <intel-pt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* bt_prog's code, read once so that the expectations do not depend on
   the library under test.  */
static int bt_corpus_read_map(const struct bt_mapping *m, uint64_t address,
			      uint8_t *buf, size_t size)
{
	int fd;
	ssize_t n;

	if (address < m->address || address - m->address >= m->size)
		return -1;
	fd = open(m->path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = pread(fd, buf, size, (off_t) (m->offset + address - m->address));
	close(fd);
	return (int) n;
}

static int bt_corpus_read(const struct bt_corpus *c, uint64_t address,
			  uint8_t *buf, size_t size)
{
	return bt_corpus_read_map(&c->mapping, address, buf, size);
}

int bt_corpus_insn_length(const struct bt_corpus *c, uint64_t address)
{
	ZydisDecoder dec;
	ZydisDecodedInstruction insn;
	uint8_t buf[16];
	int n = bt_corpus_read(c, address, buf, sizeof(buf));

	if (n <= 0)
		return -1;
	ZydisDecoderInit(&dec, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
	if (!ZYAN_SUCCESS(ZydisDecoderDecodeInstruction(&dec, NULL, buf,
							(ZyanUSize) n, &insn)))
		return -1;
	return insn.length;
}

uint32_t bt_corpus_count(const struct bt_corpus *c, uint64_t first,
			 uint64_t last)
{
	uint32_t n = 0;

	while (first <= last) {
		int len = bt_corpus_insn_length(c, first);

		if (len <= 0)
			return 0;
		first += (unsigned int) len;
		n += 1;
	}
	return n;
}

/* Find the calls and the ret of FN by walking its instructions.  */
static int bt_corpus_scan(const struct bt_corpus *c, struct bt_corpus_func *fn)
{
	ZydisDecoder dec;
	uint64_t at = fn->address;

	ZydisDecoderInit(&dec, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
	while (at < fn->address + fn->size) {
		ZydisDecodedInstruction insn;
		uint8_t buf[16];
		int n = bt_corpus_read(c, at, buf, sizeof(buf));

		if (n <= 0 || !ZYAN_SUCCESS(ZydisDecoderDecodeInstruction(
				&dec, NULL, buf, (ZyanUSize) n, &insn)))
			return -1;
		if (insn.mnemonic == ZYDIS_MNEMONIC_CALL && fn->ncalls < 2)
			fn->calls[fn->ncalls++] = at;
		if (insn.mnemonic == ZYDIS_MNEMONIC_RET)
			fn->ret = at;
		at += insn.length;
	}
	return fn->ret ? 0 : -1;
}

/* Read PATH's executable segment into M (mapped at BT_CORPUS_BASE) and
   the addresses and sizes of the N symbols NAMES.  */
static int bt_corpus_elf(const char *path, struct bt_mapping *m,
			 const char *const *names, uint64_t *address,
			 uint64_t *size, size_t n, char *why, size_t why_size)
{
	Elf *elf;
	size_t nph, found = 0;
	Elf_Scn *scn = NULL;
	int fd;

	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		snprintf(why, why_size, "%s not built", path);
		return -1;
	}
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_getphdrnum(elf, &nph) != 0) {
		snprintf(why, why_size, "%s: not ELF", path);
		close(fd);
		return -1;
	}

	for (size_t i = 0; i < nph; ++i) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int) i, &ph) && ph.p_type == PT_LOAD &&
		    (ph.p_flags & PF_X)) {
			/* Mapped as the kernel would: page-aligned.  */
			uint64_t skew = ph.p_offset & 0xfff;

			m->offset = ph.p_offset - skew;
			m->address = BT_CORPUS_BASE + ph.p_vaddr - skew;
			m->size = (ph.p_filesz + skew + 0xfff) & ~0xfffull;
			m->prot = PROT_READ | PROT_EXEC;
		}
	}

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
			continue;
		data = elf_getdata(scn, NULL);
		for (size_t i = 0; data && i < sh.sh_size / sh.sh_entsize; ++i) {
			GElf_Sym sym;
			const char *name;

			if (!gelf_getsym(data, (int) i, &sym))
				continue;
			name = elf_strptr(elf, sh.sh_link, sym.st_name);
			for (size_t k = 0; name && k < n; ++k)
				if (strcmp(name, names[k]) == 0) {
					address[k] = BT_CORPUS_BASE
						+ sym.st_value;
					size[k] = sym.st_size;
					found += 1;
				}
		}
	}
	elf_end(elf);
	close(fd);

	if (found != n || !m->size) {
		snprintf(why, why_size, "%s: symbols not found", path);
		return -1;
	}
	return 0;
}

int bt_corpus_init(struct bt_corpus *c, char *why, size_t why_size)
{
	const char *build = getenv("top_builddir");
	const char *src = getenv("top_srcdir");

	memset(c, 0, sizeof(*c));
	snprintf(c->prog, sizeof(c->prog), "%s/testsuite/btrace/bt_prog",
		 build ? build : ".");
	snprintf(c->source, sizeof(c->source), "%s/testsuite/btrace/bt_prog.c",
		 src ? src : ".");
	c->mapping.path = c->prog;

	{
		static const char *const names[] = { "main", "f", "g" };
		uint64_t address[3], size[3];

		if (bt_corpus_elf(c->prog, &c->mapping, names, address, size,
				  3, why, why_size) < 0)
			return -1;
		c->main.address = address[0];
		c->main.size = size[0];
		c->f.address = address[1];
		c->f.size = size[1];
		c->g.address = address[2];
		c->g.size = size[2];
	}
	if (bt_corpus_scan(c, &c->main) < 0 || bt_corpus_scan(c, &c->f) < 0 ||
	    bt_corpus_scan(c, &c->g) < 0 || c->main.ncalls != 2 ||
	    c->f.ncalls != 1) {
		snprintf(why, why_size, "%s: unexpected code", c->prog);
		return -1;
	}
	return 0;
}

int bt_corpus_line(const struct bt_corpus *c, const char *marker)
{
	char line[512];
	FILE *in = fopen(c->source, "r");
	int n = 0;

	if (!in)
		return -1;
	while (fgets(line, sizeof(line), in)) {
		char *at;

		n += 1;
		at = strstr(line, marker);
		/* Whole markers only: "L:f_open" is not "L:f_open2".  */
		if (at && !strchr("_abcdefghijklmnopqrstuvwxyz0123456789",
				  at[strlen(marker)])) {
			fclose(in);
			return n;
		}
	}
	fclose(in);
	return -1;
}

/* A small packet writer over libipt's encoder.  */
struct bt_pkts {
	struct pt_encoder *enc;
	int error;
};

static void bt_put(struct bt_pkts *p, const struct pt_packet *pkt)
{
	if (!p->error && pt_enc_next(p->enc, pkt) < 0)
		p->error = 1;
}

static void bt_put_simple(struct bt_pkts *p, enum pt_packet_type type)
{
	struct pt_packet pkt;

	memset(&pkt, 0, sizeof(pkt));
	pkt.type = type;
	bt_put(p, &pkt);
}

static void bt_put_ip(struct bt_pkts *p, enum pt_packet_type type,
		      uint64_t ip, enum pt_ip_compression ipc)
{
	struct pt_packet pkt;

	memset(&pkt, 0, sizeof(pkt));
	pkt.type = type;
	pkt.payload.ip.ipc = ipc;
	pkt.payload.ip.ip = ip;
	bt_put(p, &pkt);
}

static void bt_put_mode_exec64(struct bt_pkts *p)
{
	struct pt_packet pkt;

	memset(&pkt, 0, sizeof(pkt));
	pkt.type = ppt_mode;
	pkt.payload.mode.leaf = pt_mol_exec;
	pkt.payload.mode.bits.exec = pt_set_exec_mode(ptem_64bit);
	bt_put(p, &pkt);
}

/* TNT with N taken bits (compressed returns).  */
static void bt_put_taken(struct bt_pkts *p, int n)
{
	struct pt_packet pkt;

	memset(&pkt, 0, sizeof(pkt));
	pkt.type = ppt_tnt_8;
	pkt.payload.tnt.bit_size = (uint8_t) n;
	pkt.payload.tnt.payload = (1ull << n) - 1;
	bt_put(p, &pkt);
}

static int bt_corpus_begin(struct bt_corpus *c, struct bt_pkts *p)
{
	struct pt_config config;

	pt_config_init(&config);
	config.begin = c->trace;
	config.end = c->trace + sizeof(c->trace);
	p->enc = pt_alloc_encoder(&config);
	p->error = !p->enc;
	/* Tracing starts at main, as when enabled at a breakpoint there.  */
	bt_put_simple(p, ppt_psb);
	bt_put_simple(p, ppt_psbend);
	bt_put_mode_exec64(p);
	bt_put_ip(p, ppt_tip_pge, c->main.address, pt_ipc_sext_48);
	return p->error ? -1 : 0;
}

/* Stop at main's ret: FUP there and disable, like a breakpoint stop.  */
static int bt_corpus_end(struct bt_corpus *c, struct bt_pkts *p)
{
	uint64_t offset = 0;

	bt_put_ip(p, ppt_fup, c->main.ret, pt_ipc_sext_48);
	bt_put_ip(p, ppt_tip_pgd, 0, pt_ipc_suppressed);
	if (!p->error && pt_enc_get_offset(p->enc, &offset) < 0)
		p->error = 1;
	pt_free_encoder(p->enc);
	if (p->error)
		return -1;

	c->trace_size = (size_t) offset;
	memset(&c->bundle, 0, sizeof(c->bundle));
	c->bundle.format = btf_pt;
	c->bundle.cpu.vendor = btv_intel;
	c->bundle.cpu.family = 6;
	c->bundle.cpu.model = 0x55;
	c->bundle.cpu.stepping = 4;
	c->bundle.buffer_size = 16384;
	c->bundle.pid = 4242;
	c->bundle.tid = 4242;
	c->bundle.pc = c->main.ret;
	c->bundle.has_pc = 1;
	c->bundle.trace = c->trace;
	c->bundle.trace_size = c->trace_size;
	c->bundle.mappings = &c->mapping;
	c->bundle.nmappings = 1;
	return 0;
}

int bt_corpus_calls(struct bt_corpus *c)
{
	struct bt_pkts p;

	if (bt_corpus_begin(c, &p) < 0)
		return -1;
	/* g returns to f, f to main; twice.  */
	bt_put_taken(&p, 4);
	return bt_corpus_end(c, &p);
}

static void bt_put_tsc(struct bt_pkts *p, uint64_t tsc)
{
	struct pt_packet pkt;

	memset(&pkt, 0, sizeof(pkt));
	pkt.type = ppt_tsc;
	pkt.payload.tsc.tsc = tsc;
	bt_put(p, &pkt);
}

int bt_corpus_calls_timed(struct bt_corpus *c)
{
	struct pt_config config;
	struct bt_pkts p;

	pt_config_init(&config);
	config.begin = c->trace;
	config.end = c->trace + sizeof(c->trace);
	p.enc = pt_alloc_encoder(&config);
	p.error = !p.enc;
	bt_put_simple(&p, ppt_psb);
	bt_put_tsc(&p, 1000);
	bt_put_simple(&p, ppt_psbend);
	bt_put_mode_exec64(&p);
	bt_put_ip(&p, ppt_tip_pge, c->main.address, pt_ipc_sext_48);
	bt_put_taken(&p, 2);
	bt_put_tsc(&p, 5000);
	bt_put_taken(&p, 2);
	return bt_corpus_end(c, &p);
}

int bt_corpus_calls_with_error(struct bt_corpus *c)
{
	struct bt_pkts p;
	int len = bt_corpus_insn_length(c, c->main.calls[1]);

	if (len <= 0 || bt_corpus_begin(c, &p) < 0)
		return -1;
	bt_put_taken(&p, 2);
	/* The second g "returns" to page 1, where nothing is mapped.  */
	bt_put_ip(&p, ppt_tip, 0x1000, pt_ipc_sext_48);
	/* Trace the decoder never gets to use: it stops libipt's look-ahead
	   for events, which would otherwise consume the PSB+ below.  */
	bt_put_taken(&p, 1);
	/* The decoder syncs again here, back in main after the call.  */
	bt_put_simple(&p, ppt_psb);
	bt_put_mode_exec64(&p);
	bt_put_ip(&p, ppt_fup, c->main.calls[1] + (unsigned int) len,
		  pt_ipc_sext_48);
	bt_put_simple(&p, ppt_psbend);
	return bt_corpus_end(c, &p);
}

int bt_corpus_calls_with_overflow(struct bt_corpus *c)
{
	struct bt_pkts p;
	int len = bt_corpus_insn_length(c, c->main.calls[1]);

	if (len <= 0 || bt_corpus_begin(c, &p) < 0)
		return -1;
	bt_put_taken(&p, 2);
	/* Packets lost; tracing goes on after the second call of f.  */
	bt_put_simple(&p, ppt_ovf);
	bt_put_ip(&p, ppt_fup, c->main.calls[1] + (unsigned int) len,
		  pt_ipc_sext_48);
	return bt_corpus_end(c, &p);
}

/* The calls TIMES times: each run enabled anew at main (LOOPED == 0), or
   main's ret "returning" to main's start for the next run, so that the
   trace has no gaps and as many segments per instruction as the calls.  */
static int bt_corpus_calls_many(struct bt_corpus *c, size_t times, int looped,
				uint8_t **trace, size_t *size)
{
	struct pt_config config;
	struct bt_pkts p;
	uint64_t offset = 0;
	size_t cap = 64 + times * 32;
	uint8_t *buf = malloc(cap);

	if (!buf)
		return -1;
	pt_config_init(&config);
	config.begin = buf;
	config.end = buf + cap;
	p.enc = pt_alloc_encoder(&config);
	p.error = !p.enc;
	bt_put_simple(&p, ppt_psb);
	bt_put_simple(&p, ppt_psbend);
	if (looped) {
		bt_put_mode_exec64(&p);
		bt_put_ip(&p, ppt_tip_pge, c->main.address, pt_ipc_sext_48);
	}
	for (size_t i = 0; i < times && !p.error; ++i) {
		if (!looped) {
			/* Each run starts at main again: GDB sees a gap
			   between runs ("disabled").  */
			bt_put_mode_exec64(&p);
			bt_put_ip(&p, ppt_tip_pge, c->main.address,
				  pt_ipc_sext_48);
		}
		bt_put_taken(&p, 4);
		if (looped && i + 1 < times) {
			bt_put_ip(&p, ppt_tip, c->main.address,
				  pt_ipc_sext_48);
			continue;
		}
		bt_put_ip(&p, ppt_fup, c->main.ret, pt_ipc_sext_48);
		bt_put_ip(&p, ppt_tip_pgd, 0, pt_ipc_suppressed);
	}
	if (!p.error && pt_enc_get_offset(p.enc, &offset) < 0)
		p.error = 1;
	pt_free_encoder(p.enc);
	if (p.error) {
		free(buf);
		return -1;
	}
	/* The bundle of the single run, with the long trace instead.  */
	if (bt_corpus_calls(c) < 0) {
		free(buf);
		return -1;
	}
	c->bundle.trace = buf;
	c->bundle.trace_size = (size_t) offset;
	*trace = buf;
	*size = (size_t) offset;
	return 0;
}

int bt_corpus_calls_repeated(struct bt_corpus *c, size_t times,
			     uint8_t **trace, size_t *size)
{
	return bt_corpus_calls_many(c, times, 0, trace, size);
}

int bt_corpus_calls_looped(struct bt_corpus *c, size_t times,
			   uint8_t **trace, size_t *size)
{
	return bt_corpus_calls_many(c, times, 1, trace, size);
}

int bt_corpus_asm_init(struct bt_corpus_asm *a, char *why, size_t why_size)
{
	static const char *const names[] = { "t_main", "t_a", "t_b", "t_pic",
					     "t_c" };
	const char *build = getenv("top_builddir");
	uint64_t *address[] = { &a->t_main, &a->t_a, &a->t_b, &a->t_pic,
				&a->t_c };
	uint64_t addr[5], size[5];

	memset(a, 0, sizeof(*a));
	snprintf(a->prog, sizeof(a->prog), "%s/testsuite/btrace/bt_asm",
		 build ? build : ".");
	a->mapping.path = a->prog;
	if (bt_corpus_elf(a->prog, &a->mapping, names, addr, size, 5, why,
			  why_size) < 0)
		return -1;
	for (int i = 0; i < 5; ++i)
		*address[i] = addr[i];
	/* t_main is call, call, ret.  */
	a->t_main_ret = a->t_main + size[0] - 1;
	return 0;
}

int bt_corpus_asm_trace(struct bt_corpus_asm *a)
{
	struct pt_config config;
	struct bt_pkts p;
	uint64_t offset = 0;

	pt_config_init(&config);
	config.begin = a->trace;
	config.end = a->trace + sizeof(a->trace);
	p.enc = pt_alloc_encoder(&config);
	p.error = !p.enc;
	bt_put_simple(&p, ppt_psb);
	bt_put_simple(&p, ppt_psbend);
	bt_put_mode_exec64(&p);
	bt_put_ip(&p, ppt_tip_pge, a->t_main, pt_ipc_sext_48);
	/* t_b's and t_c's returns, both compressed.  */
	bt_put_taken(&p, 2);
	bt_put_ip(&p, ppt_fup, a->t_main_ret, pt_ipc_sext_48);
	bt_put_ip(&p, ppt_tip_pgd, 0, pt_ipc_suppressed);
	if (!p.error && pt_enc_get_offset(p.enc, &offset) < 0)
		p.error = 1;
	pt_free_encoder(p.enc);
	if (p.error)
		return -1;

	a->trace_size = (size_t) offset;
	memset(&a->bundle, 0, sizeof(a->bundle));
	a->bundle.format = btf_pt;
	a->bundle.pid = 7;
	a->bundle.tid = 7;
	a->bundle.pc = a->t_main_ret;
	a->bundle.has_pc = 1;
	a->bundle.trace = a->trace;
	a->bundle.trace_size = a->trace_size;
	a->bundle.mappings = &a->mapping;
	a->bundle.nmappings = 1;
	return 0;
}
