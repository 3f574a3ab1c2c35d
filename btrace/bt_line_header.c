/* DWARF line program headers (see bt_line_header.h): DWARF 5's entry
   formats with their string forms, the older NUL-terminated lists.  */
#include "btrace/bt_line_header.h"
#include "common/ps_array.h"
#include "btrace/ptbtrace.h"

#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

uint64_t bt_rd_n(struct bt_rd *r, unsigned int size)
{
	uint64_t v = 0;

	if ((size_t) (r->end - r->p) < size) {
		r->bad = 1;
		r->p = r->end;
		return 0;
	}
	for (unsigned int i = 0; i < size; ++i)
		v |= (uint64_t) r->p[i] << (8 * i);
	r->p += size;
	return v;
}

uint64_t bt_rd_uleb(struct bt_rd *r)
{
	uint64_t v = 0;
	unsigned int shift = 0;

	while (r->p < r->end) {
		uint8_t b = *r->p++;

		if (shift < 64)
			v |= (uint64_t) (b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			return v;
	}
	r->bad = 1;
	return v;
}

int64_t bt_rd_sleb(struct bt_rd *r)
{
	uint64_t v = 0;
	unsigned int shift = 0;
	uint8_t b = 0;

	while (r->p < r->end) {
		b = *r->p++;
		if (shift < 64)
			v |= (uint64_t) (b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80)) {
			if (shift < 64 && (b & 0x40))
				v |= ~(uint64_t) 0 << shift;
			return (int64_t) v;
		}
	}
	r->bad = 1;
	return (int64_t) v;
}

const char *bt_rd_str(struct bt_rd *r)
{
	const uint8_t *nul = memchr(r->p, 0, (size_t) (r->end - r->p));
	const char *s = (const char *) r->p;

	if (!nul) {
		r->bad = 1;
		r->p = r->end;
		return NULL;
	}
	r->p = nul + 1;
	return s;
}

/* A string at OFF of a string section, or NULL.  */
static const char *bt_sec_str(const Elf_Data *d, uint64_t off)
{
	const char *s;

	if (!d || off >= d->d_size)
		return NULL;
	s = (const char *) d->d_buf + off;
	return memchr(s, 0, d->d_size - off) ? s : NULL;
}





int bt_lhdr_add_file(struct bt_lhdr *h, const char *name,
			    uint64_t dir)
{
	if (PS_ARRAY_RESERVE(h->files, h->files_cap, h->nfiles + 1))
		return -bte_nomem;
	h->files[h->nfiles].name = name;
	h->files[h->nfiles].dir = dir;
	h->files[h->nfiles].sub = -1;
	h->nfiles += 1;
	return 0;
}

/* One attribute of a DWARF 5 directory or file entry: a string in *S,
   a number in *N.  */
static int bt_lhdr_form(struct bt_rd *r, const struct bt_lhdr *h,
			const struct bt_dsecs *secs, uint64_t form,
			const char **s, uint64_t *n)
{
	switch (form) {
	case DW_FORM_string:
		*s = bt_rd_str(r);
		break;
	case DW_FORM_line_strp:
		*s = bt_sec_str(secs->line_str, bt_rd_n(r, h->offset_size));
		break;
	case DW_FORM_strp:
		*s = bt_sec_str(secs->str, bt_rd_n(r, h->offset_size));
		break;
	case DW_FORM_udata:
		*n = bt_rd_uleb(r);
		break;
	case DW_FORM_data1:
		*n = bt_rd_n(r, 1);
		break;
	case DW_FORM_data2:
		*n = bt_rd_n(r, 2);
		break;
	case DW_FORM_data4:
		*n = bt_rd_n(r, 4);
		break;
	case DW_FORM_data8:
		*n = bt_rd_n(r, 8);
		break;
	case DW_FORM_data16:
		r->p += (size_t) (r->end - r->p) < 16 ? 0 : 16;
		break;
	case DW_FORM_block: {
		uint64_t len = bt_rd_uleb(r);

		if (len > (uint64_t) (r->end - r->p))
			return -1;
		r->p += len;
		break;
	}
	default:
		return -1;
	}
	return r->bad ? -1 : 0;
}

/* DWARF 5's directory or file table (FILES): entries described by a
   format of (content type, form) pairs.  */
static int bt_lhdr_entries(struct bt_rd *r, struct bt_lhdr *h,
			   const struct bt_dsecs *secs, int files)
{
	uint64_t fmt[2 * 16], count;
	unsigned int nfmt = (unsigned int) bt_rd_n(r, 1);

	if (nfmt > 16)
		return -1;
	for (unsigned int i = 0; i < 2 * nfmt; ++i)
		fmt[i] = bt_rd_uleb(r);
	count = bt_rd_uleb(r);
	if (r->bad || count > (uint64_t) (r->end - r->p))
		return -1;
	if (!files) {
		h->dirs = calloc(count ? count : 1, sizeof(*h->dirs));
		if (!h->dirs)
			return -bte_nomem;
	}
	for (uint64_t k = 0; k < count; ++k) {
		const char *name = NULL;
		uint64_t dir = 0;

		for (unsigned int i = 0; i < nfmt; ++i) {
			const char *s = NULL;
			uint64_t n = 0;

			if (bt_lhdr_form(r, h, secs, fmt[2 * i + 1], &s,
					 &n) < 0)
				return -1;
			if (fmt[2 * i] == DW_LNCT_path)
				name = s;
			else if (fmt[2 * i] == DW_LNCT_directory_index)
				dir = n;
		}
		if (!name)
			return -1;
		if (!files)
			h->dirs[h->ndirs++] = name;
		else if (bt_lhdr_add_file(h, name, dir) < 0)
			return -bte_nomem;
	}
	return 0;
}

int bt_lhdr_read(struct bt_lhdr *h, const struct bt_dsecs *secs,
			uint64_t offset, unsigned int cu_addr_size)
{
	struct bt_rd r, hr;
	uint64_t len, hlen;

	if (!secs->line || offset >= secs->line->d_size)
		return -1;
	r.p = (const uint8_t *) secs->line->d_buf + offset;
	r.end = (const uint8_t *) secs->line->d_buf + secs->line->d_size;
	r.bad = 0;
	h->offset_size = 4;
	len = bt_rd_n(&r, 4);
	if (len == 0xffffffff) {
		h->offset_size = 8;
		len = bt_rd_n(&r, 8);
	}
	if (r.bad || len > (uint64_t) (r.end - r.p))
		return -1;
	r.end = r.p + len;
	h->version = (unsigned int) bt_rd_n(&r, 2);
	if (h->version < 2 || h->version > 5)
		return -1;
	h->addr_size = cu_addr_size;
	if (h->version >= 5) {
		h->addr_size = (unsigned int) bt_rd_n(&r, 1);
		(void) bt_rd_n(&r, 1);    /* segment selector size */
	}
	hlen = bt_rd_n(&r, h->offset_size);
	if (r.bad || hlen > (uint64_t) (r.end - r.p))
		return -1;
	h->prog = r.p + hlen;
	h->prog_end = r.end;
	hr.p = r.p;
	hr.end = h->prog;
	hr.bad = 0;
	h->min_insn = (unsigned int) bt_rd_n(&hr, 1);
	h->max_ops = h->version >= 4 ? (unsigned int) bt_rd_n(&hr, 1) : 1;
	if (!h->max_ops)
		h->max_ops = 1;
	h->default_is_stmt = bt_rd_n(&hr, 1) != 0;
	h->line_base = (int8_t) bt_rd_n(&hr, 1);
	h->line_range = (unsigned int) bt_rd_n(&hr, 1);
	h->opcode_base = (unsigned int) bt_rd_n(&hr, 1);
	if (hr.bad || !h->line_range || !h->opcode_base)
		return -1;
	memset(h->std_len, 0, sizeof(h->std_len));
	for (unsigned int i = 1; i < h->opcode_base; ++i)
		h->std_len[i] = (uint8_t) bt_rd_n(&hr, 1);

	if (h->version >= 5) {
		if (bt_lhdr_entries(&hr, h, secs, 0) < 0 ||
		    bt_lhdr_entries(&hr, h, secs, 1) < 0)
			return -1;
		return hr.bad ? -1 : 0;
	}
	/* Before DWARF 5: NUL-terminated lists; entry 0 is implicit.  */
	size_t cap = 0;

	for (;;) {
		const char *d = bt_rd_str(&hr);

		if (!d || !d[0])
			break;
		if (PS_ARRAY_RESERVE(h->dirs, cap, h->ndirs + 1))
			return -bte_nomem;
		h->dirs[h->ndirs++] = d;
	}
	for (;;) {
		const char *f = bt_rd_str(&hr);
		uint64_t dir;

		if (!f || !f[0])
			break;
		dir = bt_rd_uleb(&hr);
		(void) bt_rd_uleb(&hr);
		(void) bt_rd_uleb(&hr);
		if (bt_lhdr_add_file(h, f, dir) < 0)
			return -bte_nomem;
	}
	return hr.bad ? -1 : 0;
}

/* GDB's file_name_at and include_dir_at: 0-based from DWARF 5 on.  */
struct bt_lfile *bt_lhdr_file(struct bt_lhdr *h, uint64_t index)
{
	uint64_t i = h->version >= 5 ? index : index - 1;

	return i < h->nfiles ? &h->files[i] : NULL;
}

const char *bt_lhdr_dir(const struct bt_lhdr *h, uint64_t index)
{
	uint64_t i = h->version >= 5 ? index : index - 1;

	return i < h->ndirs ? h->dirs[i] : NULL;
}

/* GDB's path_join of two parts (B relative); malloc'ed.  */
char *bt_path_join(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	int slash = la && a[la - 1] != '/';
	char *out = malloc(la + slash + lb + 1);

	if (!out)
		return NULL;
	memcpy(out, a, la);
	if (slash)
		out[la] = '/';
	memcpy(out + la + slash, b, lb + 1);
	return out;
}

void bt_lhdr_fini(struct bt_lhdr *h)
{
	free(h->dirs);
	free(h->files);
	h->dirs = NULL;
	h->files = NULL;
	h->ndirs = h->nfiles = h->files_cap = 0;
}
