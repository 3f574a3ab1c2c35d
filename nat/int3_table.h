/* The int3 bytes ptstub plants in one process, whoever asked for them:
   GDB's software breakpoints (Z0) and the trace emulator's branch traps
   share one site per address, so neither removes the other's, and memory
   reads through the stub see the original bytes.  */
#ifndef NAT_INT3_TABLE_H
#define NAT_INT3_TABLE_H

#include <stddef.h>
#include <stdint.h>

struct nat_mem;

enum int3_owner {
	int3_owner_gdb = 1 << 0,   /* a Z0 breakpoint */
	int3_owner_emu = 1 << 1,   /* a trace emulator trap */
	int3_owner_step = 1 << 2,  /* a temporary stop of the native layer */
};

struct int3_site {
	uint64_t addr;
	uint8_t orig;        /* the byte the int3 replaced */
	unsigned owners;     /* enum int3_owner bits; 0 once removed */
};

/* Sites kept sorted by address: lookups on every trap are a binary
   search, planting is rarer.  */
struct int3_table {
	struct int3_site *sites;
	size_t count;
	size_t cap;
};

void int3_table_init(struct int3_table *table);
void int3_table_fini(struct int3_table *table);

/* Plant (or add OWNER to) the site at ADDR.  */
int int3_insert(struct int3_table *table, struct nat_mem *mem, uint64_t addr,
		unsigned owner);

/* Drop OWNER from the site at ADDR; restore the byte when none is left.
   -pse_notfound if OWNER had no site there.  */
int int3_remove(struct int3_table *table, struct nat_mem *mem, uint64_t addr,
		unsigned owner);

/* Remove every site of OWNER (all sites for ~0u).  */
int int3_remove_all(struct int3_table *table, struct nat_mem *mem,
		    unsigned owner);

/* The site at ADDR, or NULL.  */
const struct int3_site *int3_lookup(const struct int3_table *table,
				    uint64_t addr);

/* Put the original bytes back into BUF, LEN bytes read at ADDR.  */
void int3_shadow(const struct int3_table *table, uint64_t addr, void *buf,
		 size_t len);

/* Write LEN bytes at ADDR on behalf of the client: planted sites keep
   their int3 in memory and take the new byte as their original.  */
int int3_write_through(struct int3_table *table, struct nat_mem *mem,
		       uint64_t addr, const void *buf, size_t len);

/* Make TO (empty) list the same sites as FROM: a fork child's memory
   holds its parent's int3s.  */
int int3_table_copy(struct int3_table *to, const struct int3_table *from);

/* Drop OWNER from every site without touching memory (its bytes were
   already put back by whoever planted them).  */
void int3_table_forget(struct int3_table *table, unsigned owner);

/* Forget every site without touching memory (after exec, or for a fork
   child whose copy was already cleaned).  */
void int3_table_clear(struct int3_table *table);

#endif
