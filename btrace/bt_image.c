/* The memory image: the bundle's file mappings as libipt cached sections,
   its page copies behind a read callback, one symbol table per object
   (looked up by bt_image_sym.c), and the code read and decoded.  */
#include "btrace/bt_image.h"
#include "btrace/bt_image_int.h"
#include "common/ps_array.h"
#include "btrace/bt_symtab.h"

#include <Zydis/Zydis.h>
#include <intel-pt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

const struct bt_isec *bt_image_sec(const struct bt_image *image, uint64_t pc)
{
	for (size_t i = 0; i < image->nsecs; ++i)
		if (pc - image->secs[i].address < image->secs[i].size)
			return &image->secs[i];
	return NULL;
}

/* libipt asks here for memory that no file section covers.  */
static int bt_image_read_pages(uint8_t *buffer, size_t size,
			       const struct pt_asid *asid, uint64_t ip,
			       void *context)
{
	const struct bt_image *image = context;
	const struct bt_isec *sec = bt_image_sec(image, ip);
	uint64_t avail;

	(void) asid;
	if (!sec || !sec->bytes)
		return -pte_nomap;
	avail = sec->size - (ip - sec->address);
	if (size > avail)
		size = (size_t) avail;
	memcpy(buffer, sec->bytes + (ip - sec->address), size);
	return (int) size;
}

static int bt_image_add_sec(struct bt_image *image, const struct bt_isec *sec)
{
	if (PS_ARRAY_RESERVE(image->secs, image->secs_cap, image->nsecs + 1))
		return -bte_nomem;
	image->secs[image->nsecs++] = *sec;
	return 0;
}

static long bt_image_add_symtab(struct bt_image *image, struct bt_symtab *st,
				const char *path)
{
	/* Three arrays side by side: all grow to the same capacity.  */
	size_t cap = image->symtabs_cap, bases_cap = cap, paths_cap = cap;
	size_t need = image->nsymtabs + 1;

	if (PS_ARRAY_RESERVE(image->symtabs, cap, need) ||
	    PS_ARRAY_RESERVE(image->symtab_bases, bases_cap, need) ||
	    PS_ARRAY_RESERVE(image->symtab_paths, paths_cap, need))
		return -bte_nomem;
	image->symtabs_cap = cap;
	image->symtabs[image->nsymtabs] = st;
	image->symtab_bases[image->nsymtabs] = 0;
	image->symtab_paths[image->nsymtabs] = path;
	return (long) image->nsymtabs++;
}

/* The symbol table for PATH, opened and relocated by M on first use; -1
   when the file has no usable ELF (the code still decodes).  A file may
   be loaded twice (by a program and, across an exec, by the one before
   it): the segments of one load lie within the file's size (and an
   alignment gap) of each other, two loads far apart.  */
static long bt_image_file_symtab(struct bt_image *image,
				 const struct bt_mapping *m, uint64_t file_size)
{
	uint64_t base = m->address - m->offset, near = file_size + 0x200000;
	struct bt_symtab *st;
	long index;

	for (size_t i = 0; i < image->nsymtabs; ++i)
		if (image->symtab_paths[i] &&
		    strcmp(image->symtab_paths[i], m->path) == 0 &&
		    base - image->symtab_bases[i] + near <= 2 * near)
			return (long) i;

	if (bt_symtab_open_file_in(&st, m->path, image->debug_dir) < 0)
		return -1;
	index = bt_image_add_symtab(image, st, m->path);
	if (index < 0)
		bt_symtab_free(st);
	else
		image->symtab_bases[index] = base;
	return index < 0 ? -1 : index;
}

static int bt_image_add_mapping(struct bt_image *image,
				const struct bt_mapping *m,
				struct bt_diag *diag)
{
	struct bt_isec sec = { m->address, m->size, 0, NULL, -1 };
	struct stat st;
	int isid, errcode;

	if (m->prot && !(m->prot & PROT_EXEC))
		return 0;
	if (!m->path || !m->size)
		return bt_diag_set(diag, bte_invalid, 0, 0,
				   "a mapping without a path or size");

	if (stat(m->path, &st) < 0)
		return bt_diag_set(diag, bte_notfound, 0, 0,
				   "%s: cannot open the mapped file",
				   m->path);
	if ((uint64_t) st.st_size <= m->offset)
		return 0;
	if (sec.size > (uint64_t) st.st_size - m->offset)
		sec.size = (uint64_t) st.st_size - m->offset;

	isid = pt_iscache_add_file(image->iscache, m->path, m->offset,
				   sec.size, m->address);
	if (isid < 0)
		return bt_diag_set(diag, bte_bad_elf, 0, 0,
				   "%s: libipt cannot map it: %s", m->path,
				   pt_errstr(pt_errcode(isid)));
	errcode = pt_image_add_cached(image->pt, image->iscache, isid, NULL);
	if (errcode < 0)
		return bt_diag_set(diag, bte_bad_elf, 0, 0,
				   "%s: libipt cannot add it: %s", m->path,
				   pt_errstr(pt_errcode(errcode)));

	sec.isid = isid;
	/* Any of the file's mappings that holds a segment start gives the
	   load bias; the others leave it alone.  */
	sec.symtab = bt_image_file_symtab(image, m, (uint64_t) st.st_size);
	if (m->build_id_size) {
		const void *id = NULL;
		ssize_t len = sec.symtab < 0 ? -1 : bt_symtab_build_id(
			image->symtabs[sec.symtab], &id);

		/* Decoding other code than was traced gives nonsense.  */
		if (len != (ssize_t) m->build_id_size ||
		    memcmp(id, m->build_id, m->build_id_size) != 0)
			return bt_diag_set(diag, bte_bad_elf, 0, 0,
					   "%s: not the traced file (its "
					   "build-id differs)", m->path);
	}
	if (sec.symtab >= 0)
		bt_symtab_relocate(image->symtabs[sec.symtab], m->address,
				   m->offset, m->size);
	return bt_image_add_sec(image, &sec);
}

static int bt_image_add_pages(struct bt_image *image, const struct bt_pages *p)
{
	struct bt_isec sec = { p->address, p->size, 0, p->bytes, -1 };
	struct bt_symtab *st;

	/* The vDSO is an ELF image; its symbols name its functions.  */
	if (p->size >= 4 && memcmp(p->bytes, "\177ELF", 4) == 0 &&
	    bt_symtab_open_memory(&st, p->bytes, p->size) == 0) {
		bt_symtab_relocate_image(st, p->address);
		sec.symtab = bt_image_add_symtab(image, st, NULL);
		if (sec.symtab < 0) {
			bt_symtab_free(st);
			return (int) sec.symtab;
		}
	}
	return bt_image_add_sec(image, &sec);
}

int bt_image_alloc(struct bt_image **pimage, const struct bt_bundle *bundle,
		   struct bt_diag *diag)
{
	return bt_image_alloc_in(pimage, bundle, NULL, diag);
}

int bt_image_alloc_in(struct bt_image **pimage,
		      const struct bt_bundle *bundle, const char *debug_dir,
		      struct bt_diag *diag)
{
	struct bt_image *image;
	int errcode;

	if (!pimage || !bundle)
		return bt_diag_set(diag, bte_invalid, 0, 0, "bad arguments");

	image = calloc(1, sizeof(*image));
	if (image && debug_dir) {
		image->debug_dir = strdup(debug_dir);
		if (!image->debug_dir) {
			free(image);
			image = NULL;
		}
	}
	if (!image)
		return bt_diag_set(diag, bte_nomem, 0, 0, "out of memory");
	image->pt = pt_image_alloc("ptbtrace");
	image->iscache = pt_iscache_alloc("ptbtrace");
	if (!image->pt || !image->iscache) {
		bt_image_free(image);
		return bt_diag_set(diag, bte_nomem, 0, 0, "out of memory");
	}
	ZydisDecoderInit(&image->zydis, ZYDIS_MACHINE_MODE_LONG_64,
			 ZYDIS_STACK_WIDTH_64);
	ZydisDecoderInit(&image->zydis_len, ZYDIS_MACHINE_MODE_LONG_64,
			 ZYDIS_STACK_WIDTH_64);
	ZydisDecoderEnableMode(&image->zydis_len, ZYDIS_DECODER_MODE_MINIMAL,
			       ZYAN_TRUE);

	for (size_t i = 0; i < bundle->nmappings; ++i) {
		errcode = bt_image_add_mapping(image, &bundle->mappings[i],
					       diag);
		if (errcode < 0) {
			bt_image_free(image);
			return errcode;
		}
	}
	for (size_t i = 0; i < bundle->npages; ++i) {
		errcode = bt_image_add_pages(image, &bundle->pages[i]);
		if (errcode < 0) {
			bt_image_free(image);
			return bt_diag_set(diag, -errcode, 0, 0,
					   "cannot add the copied pages at "
					   "0x%llx", (unsigned long long)
					   bundle->pages[i].address);
		}
	}

	errcode = pt_image_set_callback(image->pt, bt_image_read_pages, image);
	if (errcode < 0) {
		bt_image_free(image);
		return bt_diag_set(diag, bte_internal, 0, 0,
				   "libipt refused the read callback");
	}
	*pimage = image;
	return 0;
}

void bt_image_free(struct bt_image *image)
{
	if (!image)
		return;
	for (size_t i = 0; i < image->nsymtabs; ++i)
		bt_symtab_free(image->symtabs[i]);
	free(image->symtabs);
	free(image->symtab_paths);
	free(image->symtab_bases);
	free(image->secs);
	/* The image refers to the cache's sections: free it first.  */
	pt_image_free(image->pt);
	pt_iscache_free(image->iscache);
	free(image->debug_dir);
	free(image);
}

struct pt_image *bt_image_pt(const struct bt_image *image)
{
	return image ? image->pt : NULL;
}

int bt_image_read(const struct bt_image *image, uint64_t address,
		  void *buffer, size_t size)
{
	const struct bt_isec *sec;
	uint64_t avail;
	int status;

	if (!image || !buffer)
		return -bte_invalid;
	sec = bt_image_sec(image, address);
	if (!sec)
		return -bte_notfound;

	avail = sec->size - (address - sec->address);
	if (size > avail)
		size = (size_t) avail;
	if (size > INT32_MAX)
		size = INT32_MAX;

	if (sec->bytes) {
		memcpy(buffer, sec->bytes + (address - sec->address), size);
		return (int) size;
	}
	status = pt_iscache_read(image->iscache, buffer, size, sec->isid,
				 address);
	return status < 0 ? -bte_notfound : status;
}

int bt_image_insn_decode(const struct bt_image *image, uint64_t address,
			 enum bt_insn_class *iclass)
{
	ZydisDecodedInstruction insn;
	uint8_t bytes[ZYDIS_MAX_INSTRUCTION_LENGTH];
	int size, more;

	size = bt_image_read(image, address, bytes, sizeof(bytes));
	if (size < 0)
		return size;
	/* An instruction may straddle two sections.  */
	if (size < (int) sizeof(bytes)) {
		more = bt_image_read(image, address + size, bytes + size,
				     sizeof(bytes) - size);
		if (more > 0)
			size += more;
	}
	if (!ZYAN_SUCCESS(ZydisDecoderDecodeInstruction(&image->zydis, NULL,
							bytes, size, &insn)))
		return -bte_decode;

	if (iclass) {
		/* GDB's classes: far transfers count as other.  */
		int near = insn.meta.branch_type != ZYDIS_BRANCH_TYPE_FAR;

		switch (insn.mnemonic) {
		case ZYDIS_MNEMONIC_CALL:
			*iclass = near ? btic_call : btic_other;
			break;
		case ZYDIS_MNEMONIC_RET:
			*iclass = near ? btic_return : btic_other;
			break;
		case ZYDIS_MNEMONIC_JMP:
			*iclass = near ? btic_jump : btic_other;
			break;
		default:
			*iclass = insn.meta.category == ZYDIS_CATEGORY_COND_BR
				? btic_cond_jump : btic_other;
			break;
		}
	}
	return insn.length;
}

int bt_image_insn_length(const struct bt_image *image, uint64_t address)
{
	return bt_image_insn_decode(image, address, NULL);
}

int bt_image_insn_length_at(const struct bt_image *image,
			    struct bt_insn_cursor *c, uint64_t address)
{
	ZydisDecodedInstruction insn;
	uint64_t off = address - c->base;

	/* Refill unless a longest instruction fits in what was read.  */
	if (address < c->base || off + ZYDIS_MAX_INSTRUCTION_LENGTH >
	    (uint64_t) c->size) {
		int size = bt_image_read(image, address, c->bytes,
					 sizeof(c->bytes)), more;

		if (size < 0)
			return size;
		if (size < (int) sizeof(c->bytes)) {
			more = bt_image_read(image, address + size,
					     c->bytes + size,
					     sizeof(c->bytes) - size);
			if (more > 0)
				size += more;
		}
		c->base = address;
		c->size = size;
		off = 0;
	}
	if (!ZYAN_SUCCESS(ZydisDecoderDecodeInstruction(&image->zydis_len,
							NULL, c->bytes + off,
							(ZyanUSize) (c->size -
								     off),
							&insn)))
		return -bte_decode;
	return insn.length;
}

