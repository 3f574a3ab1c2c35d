/* The header of a DWARF line program (.debug_line), read as GDB's
   line_header holds it: the directory and file tables of DWARF 2 to 5,
   and the opcode parameters; and the byte reader the line program is
   decoded with (bt_symtab_lines.c).  */
#ifndef BT_LINE_HEADER_H
#define BT_LINE_HEADER_H

#include <gelf.h>
#include <stddef.h>
#include <stdint.h>

/* The sections a line program refers to.  */
struct bt_dsecs {
	const Elf_Data *line, *line_str, *str;
};

/* A cursor over a section's bytes; any read past the end sets BAD.  */
struct bt_rd {
	const uint8_t *p, *end;
	int bad;
};

struct bt_lfile {
	const char *name;
	uint64_t dir;
	int sub;                  /* its subfile, -1 until started */
};

/* A line program's header, as GDB's line_header holds it.  */
struct bt_lhdr {
	unsigned int version, offset_size, addr_size;
	unsigned int min_insn, max_ops, opcode_base, line_range;
	int line_base, default_is_stmt;
	uint8_t std_len[256];
	const char **dirs;
	size_t ndirs;
	struct bt_lfile *files;
	size_t nfiles, files_cap;
	const uint8_t *prog, *prog_end;
};

uint64_t bt_rd_n(struct bt_rd *r, unsigned int size);
uint64_t bt_rd_uleb(struct bt_rd *r);
int64_t bt_rd_sleb(struct bt_rd *r);
/* A NUL-terminated string at R, or NULL.  */
const char *bt_rd_str(struct bt_rd *r);

/* Read the header at OFFSET of SECS->line into H (zeroed before; freed
   with bt_lhdr_fini); CU_ADDR_SIZE is the CU's address size (DWARF 5
   headers give their own).  -1 for a header GDB would not read.  */
int bt_lhdr_read(struct bt_lhdr *h, const struct bt_dsecs *secs,
		 uint64_t offset, unsigned int cu_addr_size);
void bt_lhdr_fini(struct bt_lhdr *h);

/* A file entry added by DW_LNE_define_file.  */
int bt_lhdr_add_file(struct bt_lhdr *h, const char *name, uint64_t dir);

/* GDB's file_name_at and include_dir_at: INDEX as the line program
   gives it, 0-based from DWARF 5 on; NULL if there is none.  */
struct bt_lfile *bt_lhdr_file(struct bt_lhdr *h, uint64_t index);
const char *bt_lhdr_dir(const struct bt_lhdr *h, uint64_t index);

/* GDB's path_join of A and the relative B; malloc'ed.  */
char *bt_path_join(const char *a, const char *b);

#endif
