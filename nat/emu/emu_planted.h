/* Every address the engine has planted a trap at since the image was
   loaded.  Another thread can hit one of its traps just before the
   engine takes it out (a mapping change unplants all, a followed RET
   lifts one): the stop then arrives with no site left, and this set
   tells it from the program's own INT3.  */
#ifndef NAT_EMU_EMU_PLANTED_H
#define NAT_EMU_EMU_PLANTED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct emu_planted {
	uint64_t *addrs;    /* sorted, no duplicates */
	size_t count, cap;
};

void emu_planted_init(struct emu_planted *set);
void emu_planted_fini(struct emu_planted *set);

/* Remember ADDR (once).  */
int emu_planted_add(struct emu_planted *set, uint64_t addr);

bool emu_planted_has(const struct emu_planted *set, uint64_t addr);

/* The image is gone (exec): forget everything.  */
void emu_planted_clear(struct emu_planted *set);

#endif
