/* System calls made by a stopped thread on ptstub's behalf: the code
   cache's mappings are created (and removed) inside the inferior by an
   injected syscall with its registers saved and restored, so the program
   sees no change but the new mappings, named for /proc/PID/maps.  */
#ifndef NAT_EMU_CC_INJECT_H
#define NAT_EMU_CC_INJECT_H

#include <stdbool.h>
#include <string.h>
#include <stdint.h>
#include <sys/types.h>

struct nat_mem;

/* Run syscall NR(ARGS) in TID (ptrace-stopped, in no syscall) at the
   SYSCALL instruction at AT (0: write one over the thread's IP for the
   call and put the bytes back).  *RET gets the kernel's return value.
   A signal that arrives meanwhile is sent again afterwards.  */
int cc_inject_syscall(pid_t tid, struct nat_mem *mem, uint64_t at,
		      long nr, const uint64_t args[6], int64_t *ret);

/* The engine's mappings are named "ptstub ..." (CC_MAP_NAME), so that
   /proc/PID/maps says "/memfd:ptstub ... (deleted)": they are not the
   program's, and whatever lists the program's mappings leaves them out.  */
#define CC_MAP_NAME(what) "ptstub " what

static inline bool cc_inject_own_mapping(const char *path)
{
	return strncmp(path, "/memfd:" CC_MAP_NAME(""),
		       sizeof("/memfd:" CC_MAP_NAME("")) - 1) == 0;
}

/* Map SIZE bytes with PROT in TID near HINT (within 1 GiB of it, so
   within reach of rel32, when NEAR; cc_free_range).  With NAME, from a
   memfd of that name (so /proc/PID/maps says "/memfd:NAME"; its
   descriptor is closed again), else anonymous.  *ADDR gets the
   address.  With LOCAL and a NAME, the memfd is mapped into ptstub
   too, read-write and shared with the inferior's mapping, and *LOCAL
   gets it (NULL where that could not be done: the inferior's is then
   private), so that ptstub writes code, links and tables and reads
   logs with no system call.  */
int cc_inject_mmap(pid_t tid, struct nat_mem *mem, uint64_t at,
		   uint64_t hint, bool near, uint64_t size, int prot,
		   const char *name, uint64_t *addr, void **local);
int cc_inject_munmap(pid_t tid, struct nat_mem *mem, uint64_t at,
		     uint64_t addr, uint64_t size);
int cc_inject_mprotect(pid_t tid, struct nat_mem *mem, uint64_t at,
		       uint64_t addr, uint64_t size, int prot);

/* A free range of SIZE bytes in PID's map whose every byte is within
   DIST of NEAR, the one closest to DIST/2 below NEAR preferred (as far
   above it as DIST allows where the address space starts too close
   below); 0 if none.  Half the reach away, the engine's mappings stay out of the
   way of the kernel's top-down mmaps and of the heap, so the program's
   own mappings land where they would without the engine (libc moved
   by the size of the branch log, and a whole run's trace parted from
   its single-step run at the first call into libc).  */
uint64_t cc_free_range(pid_t pid, uint64_t near, uint64_t size,
		       uint64_t dist);

#endif
