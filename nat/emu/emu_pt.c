#include "nat/emu/emu_pt.h"
#include "nat/emu/emu_ring.h"
#include "common/ps_error.h"

#include <string.h>

/* The opcodes of the packets written without libipt's encoder (its
   pt_opcodes.h is not installed): IP packets and TNT-8.  */
enum {
	emu_opc_tip = 0x0d, emu_opc_fup = 0x1d, emu_opc_tip_pge = 0x11,
	emu_opc_tip_pgd = 0x01, emu_opm_ipc_shr = 5, emu_opm_tnt_8_shr = 1,
};

int emu_pt_init(struct emu_pt *pt, struct emu_ring *ring,
		uint32_t psb_period)
{
	memset(pt, 0, sizeof(*pt));
	pt_config_init(&pt->config);
	pt->config.begin = pt->stage;
	pt->config.end = pt->stage + sizeof(pt->stage);
	pt->encoder = pt_alloc_encoder(&pt->config);
	if (!pt->encoder)
		return -pse_nomem;
	pt->ring = ring;
	pt->psb_period = psb_period ? psb_period : 4096;
	return 0;
}

void emu_pt_fini(struct emu_pt *pt)
{
	pt_free_encoder(pt->encoder);
	pt->encoder = NULL;
}

static int emu_pt_put(struct emu_pt *pt, const struct pt_packet *packet)
{
	int n;

	if (pt_enc_sync_set(pt->encoder, 0) < 0)
		return -pse_internal;
	n = pt_enc_next(pt->encoder, packet);
	if (n < 0)
		return -pse_internal;
	emu_ring_write(pt->ring, pt->stage, (size_t) n);
	return 0;
}

enum pt_ip_compression emu_pt_ipc(uint64_t last_ip, uint64_t ip)
{
	if ((last_ip >> 16) == (ip >> 16))
		return pt_ipc_update_16;
	if ((last_ip >> 32) == (ip >> 32))
		return pt_ipc_update_32;
	/* Canonical addresses: bits 63:48 repeat bit 47.  */
	if ((uint64_t) ((int64_t) (ip << 16) >> 16) == ip)
		return pt_ipc_sext_48;
	if ((last_ip >> 48) == (ip >> 48))
		return pt_ipc_update_48;
	return pt_ipc_full;
}

/* No compression: what an IP packet carries after the decoder reset
   its last IP.  */
static enum pt_ip_compression emu_pt_ipc_full(uint64_t ip)
{
	return (uint64_t) ((int64_t) (ip << 16) >> 16) == ip ?
		pt_ipc_sext_48 : pt_ipc_full;
}

/* Bytes of IP an IP packet carries, by compression (libipt's sizes).  */
static size_t emu_pt_ip_bytes(enum pt_ip_compression ipc)
{
	switch (ipc) {
	case pt_ipc_update_16: return 2;
	case pt_ipc_update_32: return 4;
	case pt_ipc_update_48:
	case pt_ipc_sext_48: return 6;
	case pt_ipc_full: return 8;
	default: return 0;
	}
}

/* IP packets are the drain's most frequent after TNT: written here
   byte for byte as libipt's encoder writes them (opcode with the
   compression in bits 7:5, then the IP's low bytes), without it.  */
static int emu_pt_put_ip(struct emu_pt *pt, enum pt_packet_type type,
			 uint64_t ip, bool suppressed)
{
	enum pt_ip_compression ipc = pt_ipc_suppressed;
	uint8_t packet[9];
	size_t n;

	if (!suppressed) {
		ipc = pt->ip_full ? emu_pt_ipc_full(ip)
			: emu_pt_ipc(pt->last_ip, ip);
		pt->last_ip = ip;
		pt->ip_full = false;
	}
	switch (type) {
	case ppt_tip: packet[0] = emu_opc_tip; break;
	case ppt_fup: packet[0] = emu_opc_fup; break;
	case ppt_tip_pge: packet[0] = emu_opc_tip_pge; break;
	case ppt_tip_pgd: packet[0] = emu_opc_tip_pgd; break;
	default: return -pse_internal;
	}
	packet[0] |= (uint8_t) (ipc << emu_opm_ipc_shr);
	n = emu_pt_ip_bytes(ipc);
	for (size_t i = 0; i < n; i++)
		packet[1 + i] = (uint8_t) (ip >> (8 * i));
	emu_ring_write(pt->ring, packet, 1 + n);
	return 0;
}

/* TNT-8 as libipt's encoder writes it: the bits above bit 0, oldest
   highest, under a stop bit; written here, once per six conditionals. */
int emu_pt_flush(struct emu_pt *pt)
{
	if (!pt->tnt_count)
		return 0;
	emu_ring_put(pt->ring, (uint8_t) ((pt->tnt_bits << emu_opm_tnt_8_shr) |
					  (1u << (pt->tnt_count +
						  emu_opm_tnt_8_shr))));
	pt->tnt_bits = 0;
	pt->tnt_count = 0;
	return 0;
}

static int emu_pt_mode_exec(struct emu_pt *pt)
{
	struct pt_packet packet;

	memset(&packet, 0, sizeof(packet));
	packet.type = ppt_mode;
	packet.payload.mode.leaf = pt_mol_exec;
	packet.payload.mode.bits.exec = pt_set_exec_mode(ptem_64bit);
	return emu_pt_put(pt, &packet);
}

int emu_pt_psb(struct emu_pt *pt, bool enabled, uint64_t ip)
{
	struct pt_packet packet;
	int err;

	err = emu_pt_flush(pt);
	if (err < 0)
		return err;
	pt->psb_at = pt->ring->head;
	pt->last_ip = 0;
	/* A decoder syncing here starts with an empty return stack.  */
	pt->ret_count = 0;
	memset(&packet, 0, sizeof(packet));
	packet.type = ppt_psb;
	err = emu_pt_put(pt, &packet);
	if (!err && pt->tsc) {
		/* A decoder syncing here learns the time: the last one
		   written, which what follows ran at or after.  */
		packet.type = ppt_tsc;
		packet.payload.tsc.tsc = pt->tsc;
		err = emu_pt_put(pt, &packet);
	}
	if (!err)
		err = emu_pt_mode_exec(pt);
	if (!err && enabled)
		err = emu_pt_put_ip(pt, ppt_fup, ip, false);
	if (!err) {
		packet.type = ppt_psbend;
		err = emu_pt_put(pt, &packet);
	}
	return err;
}

int emu_pt_tsc(struct emu_pt *pt, uint64_t tsc)
{
	struct pt_packet packet;
	int err;

	if (pt->untimed)
		return 0;
	err = emu_pt_flush(pt);
	if (err < 0)
		return err;
	memset(&packet, 0, sizeof(packet));
	packet.type = ppt_tsc;
	packet.payload.tsc.tsc = tsc;
	pt->tsc = tsc;
	return emu_pt_put(pt, &packet);
}

bool emu_pt_psb_due(const struct emu_pt *pt)
{
	return pt->ring->head - pt->psb_at >= pt->psb_period;
}

int emu_pt_tip(struct emu_pt *pt, uint64_t ip)
{
	int err = emu_pt_flush(pt);

	return err < 0 ? err : emu_pt_put_ip(pt, ppt_tip, ip, false);
}

int emu_pt_fup(struct emu_pt *pt, uint64_t ip)
{
	int err = emu_pt_flush(pt);

	return err < 0 ? err : emu_pt_put_ip(pt, ppt_fup, ip, false);
}

int emu_pt_pgd(struct emu_pt *pt)
{
	int err = emu_pt_flush(pt);

	pt->ret_count = 0;
	return err < 0 ? err : emu_pt_put_ip(pt, ppt_tip_pgd, 0, true);
}

int emu_pt_pge(struct emu_pt *pt, uint64_t ip)
{
	int err = emu_pt_flush(pt);

	if (!err)
		err = emu_pt_mode_exec(pt);
	return err < 0 ? err : emu_pt_put_ip(pt, ppt_tip_pge, ip, false);
}

int emu_pt_ovf(struct emu_pt *pt)
{
	struct pt_packet packet;
	int err = emu_pt_flush(pt);

	if (err < 0)
		return err;
	pt->ret_count = 0;
	/* A decoder forgets the last IP at OVF (libipt resets it, as the
	   hardware does): the IP after it must be sent whole.  */
	pt->last_ip = 0;
	pt->ip_full = true;
	memset(&packet, 0, sizeof(packet));
	packet.type = ppt_ovf;
	return emu_pt_put(pt, &packet);
}
