#include "nat/svr4.h"
#include "nat/auxv.h"
#include "common/ps_buf.h"
#include "common/ps_error.h"
#include "common/ps_hex.h"

#include <elf.h>
#include <stddef.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* glibc's 64-bit layouts: struct r_debug (r_debug_extended from r_next
   on) and the public head of struct link_map.  */
enum {
	r_version_offset = 0,
	r_map_offset = 8,
	r_next_offset = 40,

	lm_addr_offset = 0,
	lm_name_offset = 8,
	lm_ld_offset = 16,
	lm_next_offset = 24,
	lm_prev_offset = 32,
	lm_head_size = 40,
};

/* More program headers than this is a corrupt auxv, not an ELF file.  */
enum { svr4_max_phnum = 512 };

/* PT_DYNAMIC is read in one go, up to this much.  */
enum { svr4_max_dynamic = 64 * 1024 };

struct svr4_reader {
	svr4_read_fn read;
	void *ctx;
};

static int read_all(const struct svr4_reader *r, uint64_t addr, void *buf,
		    size_t len)
{
	long n = r->read(r->ctx, addr, buf, len);

	if (n < 0)
		return (int) n;
	return (size_t) n == len ? 0 : -pse_fault;
}

static int read_u64(const struct svr4_reader *r, uint64_t addr,
		    uint64_t *value)
{
	return read_all(r, addr, value, sizeof(*value));
}

/* The run-time address and size of the main executable's PT_DYNAMIC,
   found from the program headers the auxv points to.  */
static int find_dynamic(pid_t pid, const struct svr4_reader *r,
			uint64_t *addr, uint64_t *size)
{
	uint64_t phdr_addr, phnum, bias = 0;
	struct ps_buf auxv;
	Elf64_Phdr *phdrs;
	int err, have_bias = 0;

	ps_buf_init(&auxv);
	err = auxv_read(pid, &auxv);
	if (!err && (auxv_lookup(auxv.data, auxv.len, AT_PHDR, &phdr_addr)
		     || auxv_lookup(auxv.data, auxv.len, AT_PHNUM, &phnum)))
		err = -pse_notfound;
	ps_buf_fini(&auxv);
	if (err < 0)
		return err;
	if (phdr_addr == 0 || phnum == 0)
		return -pse_notfound;
	if (phnum > svr4_max_phnum)
		return -pse_invalid;

	phdrs = malloc(phnum * sizeof(*phdrs));
	if (!phdrs)
		return -pse_nomem;
	err = read_all(r, phdr_addr, phdrs, phnum * sizeof(*phdrs));

	/* PIE: the bias is where the headers are less where they say they
	   are.  Any executable with DT_DEBUG has PT_PHDR.  */
	for (uint64_t i = 0; !err && i < phnum && !have_bias; i++) {
		if (phdrs[i].p_type == PT_PHDR) {
			bias = phdr_addr - phdrs[i].p_vaddr;
			have_bias = 1;
		}
	}
	if (!err)
		err = -pse_notfound;
	for (uint64_t i = 0; have_bias && i < phnum; i++) {
		if (phdrs[i].p_type == PT_DYNAMIC) {
			*addr = phdrs[i].p_vaddr + bias;
			*size = phdrs[i].p_memsz;
			err = 0;
			break;
		}
	}
	free(phdrs);
	return err;
}

/* The address of r_debug from DT_DEBUG (and, in SLOT, where DT_DEBUG's
   value is): 0 until the dynamic linker has set it up, -pse_notfound
   when there is no DT_DEBUG at all.  */
static int find_debug(pid_t pid, const struct svr4_reader *r,
		      uint64_t *r_debug, uint64_t *slot)
{
	uint64_t dyn_addr = 0, dyn_size = 0;
	Elf64_Dyn *dyn;
	long got;
	int err;

	err = find_dynamic(pid, r, &dyn_addr, &dyn_size);
	if (err < 0)
		return err;
	if (dyn_size > svr4_max_dynamic)
		dyn_size = svr4_max_dynamic;
	if (dyn_size < sizeof(*dyn))
		dyn_size = sizeof(*dyn);

	dyn = malloc(dyn_size);
	if (!dyn)
		return -pse_nomem;
	/* One read instead of one per entry; a short one still counts.  */
	got = r->read(r->ctx, dyn_addr, dyn, dyn_size);
	err = -pse_notfound;
	for (size_t i = 0; got > 0 && i < (size_t) got / sizeof(*dyn); i++) {
		if (dyn[i].d_tag == DT_NULL)
			break;
		if (dyn[i].d_tag == DT_DEBUG) {
			*r_debug = dyn[i].d_un.d_val;
			*slot = dyn_addr + i * sizeof(*dyn) +
				offsetof(Elf64_Dyn, d_un);
			err = 0;
			break;
		}
	}
	free(dyn);
	return got < 0 ? (int) got : err;
}

static int find_r_debug(pid_t pid, const struct svr4_reader *r,
			uint64_t *r_debug)
{
	uint64_t slot;

	return find_debug(pid, r, r_debug, &slot);
}

int svr4_debug_slot(pid_t pid, svr4_read_fn read, void *ctx, uint64_t *slot)
{
	struct svr4_reader r = { read, ctx };
	uint64_t r_debug;

	return find_debug(pid, &r, &r_debug, slot);
}

/* One annex value: hex up to ';' or the end (empty reads as 0).  */
static int annex_value(const char **annex, uint64_t *value)
{
	const char *p = *annex, *end = p + strcspn(p, ";");
	int err = 0;

	*value = 0;
	if (p < end)
		err = ps_hex_parse_u64(&p, end, value);
	if (!err && p != end)
		err = -pse_badhex;
	if (err < 0)
		return err;
	*annex = *end ? end + 1 : end;
	return 0;
}

/* GDB's "lmid=..;start=..;prev=.."; unknown keys are skipped.  */
static int parse_annex(const char *annex, uint64_t *lmid, uint64_t *start,
		       uint64_t *prev)
{
	*lmid = *start = *prev = 0;
	while (*annex) {
		const char *sep = strchr(annex, '=');
		size_t name_len;
		uint64_t *value;
		int err;

		if (!sep)
			break;
		name_len = (size_t) (sep - annex);
		if (name_len == 4 && !strncmp(annex, "lmid", 4))
			value = lmid;
		else if (name_len == 5 && !strncmp(annex, "start", 5))
			value = start;
		else if (name_len == 4 && !strncmp(annex, "prev", 4))
			value = prev;
		else {
			annex = strchr(sep, ';');
			if (!annex)
				break;
			annex++;
			continue;
		}
		annex = sep + 1;
		err = annex_value(&annex, value);
		if (err < 0)
			return err;
	}
	return 0;
}

/* Read the NUL-terminated name at ADDR into NAME (PATH_MAX bytes); a
   name cut short by unreadable memory is kept as far as it goes.  */
static void read_name(const struct svr4_reader *r, uint64_t addr, char *name)
{
	enum { chunk = 256 };
	size_t len = 0;

	while (len < PATH_MAX - 1) {
		size_t want = PATH_MAX - 1 - len;
		long n;

		if (want > chunk)
			want = chunk;
		n = r->read(r->ctx, addr + len, name + len, want);
		if (n <= 0)
			break;
		if (memchr(name + len, '\0', (size_t) n))
			return;
		len += (size_t) n;
		if ((size_t) n < want)
			break;
	}
	name[len] = '\0';
}

/* Append the <library> elements of one namespace, from LM on, checking
   each l_prev against the element before (a list being changed under
   us, or corrupt, ends the walk).  */
static int walk_link_map(const struct svr4_reader *r, struct ps_buf *xml,
			 uint64_t lmid, uint64_t lm, uint64_t prev)
{
	char *name = malloc(PATH_MAX);
	int err = name ? 0 : -pse_nomem;

	while (!err && lm) {
		uint64_t head[lm_head_size / 8];

		if (read_all(r, lm, head, sizeof(head)) < 0)
			break;
		if (head[lm_prev_offset / 8] != prev)
			break;

		read_name(r, head[lm_name_offset / 8], name);
		/* Nameless entries (the main program, usually) are left out.  */
		if (name[0]) {
			err = ps_buf_puts(xml, "<library name=\"");
			if (!err)
				err = ps_buf_put_xml(xml, name);
			if (!err)
				err = ps_buf_printf(xml,
					"\" lm=\"0x%" PRIx64 "\" l_addr=\"0x%"
					PRIx64 "\" l_ld=\"0x%" PRIx64
					"\" lmid=\"0x%" PRIx64 "\"/>",
					lm, head[lm_addr_offset / 8],
					head[lm_ld_offset / 8], lmid);
		}
		prev = lm;
		lm = head[lm_next_offset / 8];
	}
	free(name);
	return err;
}

/* Every namespace from the main r_debug on through r_next (r_version
   2, glibc's dlmopen namespaces); the first one's head is the main
   program, named in main-lm and not listed.  */
static int walk_namespaces(const struct svr4_reader *r, struct ps_buf *xml,
			   uint64_t main_r_debug)
{
	uint64_t r_debug = main_r_debug;
	int err = 0, open_tag = 1;

	while (!err && r_debug) {
		uint64_t lm, prev = 0;
		int32_t version;

		if (read_all(r, r_debug + r_version_offset, &version,
			     sizeof(version)) < 0 || version < 1)
			break;
		if (read_u64(r, r_debug + r_map_offset, &lm) < 0)
			break;

		if (r_debug == main_r_debug) {
			err = lm ? ps_buf_printf(xml, " main-lm=\"0x%" PRIx64
						 "\">", lm)
				: ps_buf_puts(xml, ">");
			open_tag = 0;
			if (err < 0 || !lm)
				break;
			prev = lm;
			if (read_u64(r, lm + lm_next_offset, &lm) < 0)
				break;
		}

		err = walk_link_map(r, xml, r_debug, lm, prev);
		if (err < 0 || version < 2
		    || read_u64(r, r_debug + r_next_offset, &r_debug) < 0)
			break;
	}
	/* An r_debug not set up yet, or unreadable: an empty list.  */
	if (!err && open_tag)
		err = ps_buf_puts(xml, ">");
	return err;
}

int svr4_library_list(pid_t pid, svr4_read_fn read, void *ctx,
		      const char *annex, struct ps_buf *xml)
{
	const struct svr4_reader r = { read, ctx };
	uint64_t lmid, start, prev, r_debug = 0;
	size_t begin = xml->len;
	int err;

	err = parse_annex(annex ? annex : "", &lmid, &start, &prev);
	if (err < 0)
		return err;
	/* Without start= the whole list is walked; r_debug is needed.  */
	if (!start) {
		err = find_r_debug(pid, &r, &r_debug);
		if (err < 0)
			return err;
	}

	err = ps_buf_puts(xml, "<library-list-svr4 version=\"1.0\"");
	if (!err && start) {
		err = ps_buf_puts(xml, ">");
		if (!err)
			err = walk_link_map(&r, xml, lmid, start, prev);
	} else if (!err) {
		err = walk_namespaces(&r, xml, r_debug);
	}
	if (!err)
		err = ps_buf_puts(xml, "</library-list-svr4>");
	if (err < 0 && xml->data) {
		xml->len = begin;
		xml->data[begin] = '\0';
	}
	return err;
}
