/* The memory image's insides, shared by its two halves: the image
   (bt_image.c: sections, page copies, the code) and the lookups of
   names and lines in it (bt_image_sym.c).  */
#ifndef BT_IMAGE_INT_H
#define BT_IMAGE_INT_H

#include "btrace/bt_image.h"

#include <Zydis/Zydis.h>
#include <stddef.h>
#include <stdint.h>

struct pt_image_section_cache;

struct bt_isec {
	uint64_t address;
	uint64_t size;
	int isid;                 /* > 0 for file sections */
	const uint8_t *bytes;     /* for page copies */
	long symtab;              /* index into symtabs, or -1 */
};

struct bt_image {
	struct pt_image *pt;
	struct pt_image_section_cache *iscache;
	struct bt_isec *secs;
	size_t nsecs, secs_cap;
	struct bt_symtab **symtabs;
	const char **symtab_paths;  /* NULL for in-memory images */
	uint64_t *symtab_bases;     /* its first mapping's address - offset */
	size_t nsymtabs, symtabs_cap;
	ZydisDecoder zydis;
	ZydisDecoder zydis_len;   /* lengths only: minimal mode */
	char *debug_dir;          /* NULL: the default */
};

/* The section holding PC, or NULL.  */
const struct bt_isec *bt_image_sec(const struct bt_image *image, uint64_t pc);

#endif
