/* The Intel PT packet writer of one traced thread: packets encoded with
   libipt's encoder into the thread's ring, with hardware's IP
   compression, TNT batching, RET compression, periodic PSB+ and the
   time, as TSC packets.  */
#ifndef NAT_EMU_EMU_PT_H
#define NAT_EMU_EMU_PT_H

#include <stdbool.h>
#include <stdint.h>
#include <intel-pt.h>
#include <x86intrin.h>

struct emu_ring;

/* libipt's decoder pairs compressed returns with a 64-entry stack.  */
enum { emu_retstack_size = 64 };

struct emu_pt {
	struct pt_encoder *encoder;
	struct pt_config config;
	uint8_t stage[32];           /* one packet, before the ring */
	struct emu_ring *ring;
	uint64_t last_ip;            /* for IP compression; 0 after PSB */
	bool ip_full;                /* the next IP uncompressed (OVF) */
	uint64_t tnt_bits;           /* pending TNT bits, oldest highest */
	uint8_t tnt_count;
	uint64_t psb_at;             /* ring head at the last PSB */
	uint32_t psb_period;         /* bytes between PSB+ */
	/* Calls since the last PSB or disable, as the decoder sees them. */
	uint64_t retstack[emu_retstack_size];
	uint8_t ret_top, ret_count;
	uint64_t tsc;                /* the last TSC written (0: none) */
	bool untimed;                /* no TSC packets (tsc stays 0) */
};

/* The time stamp counter, as the recorded thread's TSC packets carry
   it: the tracer reads it while the thread is stopped.  */
static inline uint64_t emu_pt_now(void)
{
	return __rdtsc();
}

/* TSC ticks between the TSC packets written at a tracer's stops (one
   every few tens of microseconds at most, as hardware's MTC at a long
   period: a TSC at every stop would triple the trace); a trace that
   comes back from the kernel gets one whatever the period.  */
enum { emu_tsc_period = 1 << 17 };

/* Write into RING; a PSB+ every PSB_PERIOD bytes (0: 4096).  */
int emu_pt_init(struct emu_pt *pt, struct emu_ring *ring,
		uint32_t psb_period);
void emu_pt_fini(struct emu_pt *pt);

/* PSB+: PSB, TSC (the last written, if any), MODE.Exec 64-bit, FUP at
   IP when ENABLED, PSBEND.  */
int emu_pt_psb(struct emu_pt *pt, bool enabled, uint64_t ip);

/* Whether a periodic PSB+ is due.  */
bool emu_pt_psb_due(const struct emu_pt *pt);

/* A TSC packet (after the pending TNT bits): what comes after ran at
   TSC or later, what came before ran before it.  None if untimed.  */
int emu_pt_tsc(struct emu_pt *pt, uint64_t tsc);

/* Emit pending TNT bits.  */
int emu_pt_flush(struct emu_pt *pt);

/* An indirect branch to IP.  */
int emu_pt_tip(struct emu_pt *pt, uint64_t ip);

/* TNT-8 holds up to six bits.  */
enum { emu_tnt_max = 6 };

/* The next three are inline: the code cache's drain makes one of them
   per conditional, return and call it turns into trace.  */

/* A conditional branch's outcome (batched into TNT packets).  */
static inline int emu_pt_tnt(struct emu_pt *pt, bool taken)
{
	pt->tnt_bits = (pt->tnt_bits << 1) | (taken ? 1 : 0);
	pt->tnt_count++;
	return pt->tnt_count == emu_tnt_max ? emu_pt_flush(pt) : 0;
}

/* A near call whose return address is NLIP (no packet of its own).  */
static inline void emu_pt_call(struct emu_pt *pt, uint64_t nlip)
{
	pt->ret_top = (uint8_t) ((pt->ret_top + 1) % emu_retstack_size);
	pt->retstack[pt->ret_top] = nlip;
	if (pt->ret_count < emu_retstack_size)
		pt->ret_count++;
}

/* A near return to IP: compressed when the decoder can pair it.  */
static inline int emu_pt_ret(struct emu_pt *pt, uint64_t ip)
{
	/* libipt pops only on a compressed return, so a mismatch leaves
	   the stack as it is and sends the target.  */
	if (pt->ret_count && pt->retstack[pt->ret_top] == ip) {
		pt->ret_top = (uint8_t) ((pt->ret_top + emu_retstack_size - 1)
					 % emu_retstack_size);
		pt->ret_count--;
		return emu_pt_tnt(pt, true);
	}
	return emu_pt_tip(pt, ip);
}

/* An asynchronous event at IP: FUP (the instruction at IP is not run). */
int emu_pt_fup(struct emu_pt *pt, uint64_t ip);

/* Tracing stops (IP suppressed: the target is not traced).  */
int emu_pt_pgd(struct emu_pt *pt);

/* Tracing resumes at IP: MODE.Exec, TIP.PGE.  */
int emu_pt_pge(struct emu_pt *pt, uint64_t ip);

/* Packets were lost (a gap the emulator could not follow).  The
   decoder forgets its last IP there, so the next IP packet is sent
   uncompressed, as hardware does.  */
int emu_pt_ovf(struct emu_pt *pt);

/* The compression hardware chooses for IP after LAST_IP.  */
enum pt_ip_compression emu_pt_ipc(uint64_t last_ip, uint64_t ip);

#endif
