#include "nat/debugregs.h"
#include "common/ps_error.h"

#include <errno.h>
#include <stddef.h>
#include <sys/ptrace.h>
#include <sys/user.h>

#define DR_OFFSET(i) (offsetof(struct user, u_debugreg) + (i) * sizeof(long))

void nat_debugregs_init(struct nat_debugregs *dr)
{
	for (int i = 0; i < 4; i++)
		dr->slot[i].refs = 0;
}

static int dr_find(const struct nat_debugregs *dr, enum nat_dr_kind kind,
		   uint64_t addr, unsigned len)
{
	for (int i = 0; i < 4; i++) {
		const struct nat_dr_slot *s = &dr->slot[i];

		if (s->refs && s->kind == kind && s->addr == addr &&
		    s->len == len)
			return i;
	}
	return -1;
}

/* The largest aligned piece (1, 2, 4, 8) that starts at ADDR and fits
   in LEN.  */
static unsigned dr_piece(uint64_t addr, size_t len)
{
	unsigned size = 8;

	while (size > 1 && ((addr & (size - 1)) || size > len))
		size /= 2;
	return size;
}

/* Walk the aligned pieces of a region; CLAIM adds, otherwise drops.  */
static int dr_pieces(struct nat_debugregs *dr, enum nat_dr_kind kind,
		     uint64_t addr, size_t len, int claim)
{
	while (len) {
		unsigned size = kind == nat_dr_exec ? 1 : dr_piece(addr, len);
		int i = dr_find(dr, kind, addr, size);

		if (claim) {
			if (i < 0) {
				for (i = 0; i < 4 && dr->slot[i].refs; i++)
					;
				if (i == 4)
					return -pse_nospace;
				dr->slot[i].addr = addr;
				dr->slot[i].len = size;
				dr->slot[i].kind = kind;
			}
			dr->slot[i].refs++;
		} else {
			if (i < 0)
				return -pse_notfound;
			dr->slot[i].refs--;
		}
		if (kind == nat_dr_exec)
			break;
		addr += size;
		len -= size;
	}
	return 0;
}

int nat_debugregs_insert(struct nat_debugregs *dr, enum nat_dr_kind kind,
			 uint64_t addr, size_t len)
{
	struct nat_debugregs saved = *dr;
	int err;

	if (kind == nat_dr_read)
		return -pse_unsupported;
	if (!len)
		return -pse_invalid;
	err = dr_pieces(dr, kind, addr, len, 1);
	if (err < 0)
		*dr = saved;
	return err;
}

int nat_debugregs_remove(struct nat_debugregs *dr, enum nat_dr_kind kind,
			 uint64_t addr, size_t len)
{
	struct nat_debugregs saved = *dr;
	int err;

	if (kind == nat_dr_read)
		return -pse_unsupported;
	err = dr_pieces(dr, kind, addr, len ? len : 1, 0);
	if (err < 0)
		*dr = saved;
	return err;
}

uint64_t nat_debugregs_dr7(const struct nat_debugregs *dr)
{
	uint64_t dr7 = 0;

	for (int i = 0; i < 4; i++) {
		const struct nat_dr_slot *s = &dr->slot[i];
		unsigned rw, ln;

		if (!s->refs)
			continue;
		rw = s->kind == nat_dr_exec ? 0 : s->kind == nat_dr_write ? 1 : 3;
		ln = s->len == 8 ? 2 : s->len - 1;
		if (s->kind == nat_dr_exec)
			ln = 0;
		dr7 |= (uint64_t) 1 << (2 * i);
		dr7 |= (uint64_t) (rw | ln << 2) << (16 + 4 * i);
	}
	/* Exact data breakpoints, as the SDM recommends with watchpoints.  */
	if (dr7)
		dr7 |= 1 << 8;
	return dr7;
}

static int dr_poke(pid_t tid, int i, uint64_t value)
{
	errno = 0;
	if (ptrace(PTRACE_POKEUSER, tid, (void *) DR_OFFSET(i),
		   (void *) value) < 0)
		return errno == ESRCH ? -pse_nothread : -pse_io;
	return 0;
}

int nat_debugregs_apply(const struct nat_debugregs *dr, pid_t tid)
{
	int err;

	/* Disable first: the kernel checks each address against DR7.  */
	err = dr_poke(tid, 7, 0);
	for (int i = 0; i < 4 && !err; i++)
		if (dr->slot[i].refs)
			err = dr_poke(tid, i, dr->slot[i].addr);
	if (!err)
		err = dr_poke(tid, 7, nat_debugregs_dr7(dr));
	return err;
}

int nat_debugregs_clear(pid_t tid)
{
	int err = dr_poke(tid, 7, 0);

	for (int i = 0; i < 4 && !err; i++)
		err = dr_poke(tid, i, 0);
	return err;
}

int nat_debugregs_hit(const struct nat_debugregs *dr, pid_t tid)
{
	long dr6;

	errno = 0;
	dr6 = ptrace(PTRACE_PEEKUSER, tid, (void *) DR_OFFSET(6), 0);
	if (errno)
		return -pse_nothread;
	if (!(dr6 & 0xf))
		return -pse_notfound;
	dr_poke(tid, 6, 0);
	for (int i = 0; i < 4; i++)
		if ((dr6 & (1 << i)) && dr->slot[i].refs)
			return i;
	return -pse_notfound;
}
