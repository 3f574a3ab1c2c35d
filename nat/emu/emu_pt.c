#include "nat/emu/emu_pt.h"
#include "nat/emu/emu_ring.h"
#include "common/ps_error.h"

#include <string.h>

/* TNT-8 holds up to six bits.  */
enum { emu_tnt_max = 6 };

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

static int emu_pt_put_ip(struct emu_pt *pt, enum pt_packet_type type,
			 uint64_t ip, bool suppressed)
{
	struct pt_packet packet;

	memset(&packet, 0, sizeof(packet));
	packet.type = type;
	if (suppressed) {
		packet.payload.ip.ipc = pt_ipc_suppressed;
	} else {
		enum pt_ip_compression ipc = emu_pt_ipc(pt->last_ip, ip);

		packet.payload.ip.ipc = ipc;
		switch (ipc) {
		case pt_ipc_update_16: packet.payload.ip.ip = ip & 0xffff; break;
		case pt_ipc_update_32: packet.payload.ip.ip = ip & 0xffffffff; break;
		case pt_ipc_sext_48:
		case pt_ipc_update_48:
			packet.payload.ip.ip = ip & 0xffffffffffffull; break;
		default: packet.payload.ip.ip = ip; break;
		}
		pt->last_ip = ip;
	}
	return emu_pt_put(pt, &packet);
}

int emu_pt_flush(struct emu_pt *pt)
{
	struct pt_packet packet;
	int err;

	if (!pt->tnt_count)
		return 0;
	memset(&packet, 0, sizeof(packet));
	packet.type = ppt_tnt_8;
	packet.payload.tnt.bit_size = pt->tnt_count;
	packet.payload.tnt.payload = pt->tnt_bits;
	err = emu_pt_put(pt, &packet);
	pt->tnt_bits = 0;
	pt->tnt_count = 0;
	return err;
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

bool emu_pt_psb_due(const struct emu_pt *pt)
{
	return pt->ring->head - pt->psb_at >= pt->psb_period;
}

int emu_pt_tnt(struct emu_pt *pt, bool taken)
{
	pt->tnt_bits = (pt->tnt_bits << 1) | (taken ? 1 : 0);
	pt->tnt_count++;
	return pt->tnt_count == emu_tnt_max ? emu_pt_flush(pt) : 0;
}

int emu_pt_tip(struct emu_pt *pt, uint64_t ip)
{
	int err = emu_pt_flush(pt);

	return err < 0 ? err : emu_pt_put_ip(pt, ppt_tip, ip, false);
}

void emu_pt_call(struct emu_pt *pt, uint64_t nlip)
{
	pt->ret_top = (uint8_t) ((pt->ret_top + 1) % emu_retstack_size);
	pt->retstack[pt->ret_top] = nlip;
	if (pt->ret_count < emu_retstack_size)
		pt->ret_count++;
}

int emu_pt_ret(struct emu_pt *pt, uint64_t ip)
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
	   hardware does): the FUP after it must carry the whole IP.  */
	pt->last_ip = 0;
	memset(&packet, 0, sizeof(packet));
	packet.type = ppt_ovf;
	return emu_pt_put(pt, &packet);
}
