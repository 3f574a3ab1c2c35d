/* The PT writer, checked by decoding what it wrote with libipt's packet
   decoder: PSB+, IP compression, TNT order, RET compression rules.  */
#include "nat/emu/emu_pt.h"
#include "nat/emu/emu_ring.h"
#include "common/ps_buf.h"

#include <criterion/criterion.h>
#include <intel-pt.h>
#include <string.h>

struct fixture {
	struct emu_ring ring;
	struct emu_pt pt;
	struct ps_buf out;
	struct pt_packet packets[64];
	int count;
};

static void start(struct fixture *f)
{
	cr_assert_eq(emu_ring_init(&f->ring, 4096), 0);
	cr_assert_eq(emu_pt_init(&f->pt, &f->ring, 0), 0);
	ps_buf_init(&f->out);
}

/* Decode everything written so far.  */
static void decode(struct fixture *f)
{
	struct pt_packet_decoder *dec;
	struct pt_config config;
	int status;

	emu_pt_flush(&f->pt);
	ps_buf_reset(&f->out);
	cr_assert_eq(emu_ring_read_all(&f->ring, &f->out), 0);
	pt_config_init(&config);
	config.begin = (uint8_t *) f->out.data;
	config.end = (uint8_t *) f->out.data + f->out.len;
	dec = pt_pkt_alloc_decoder(&config);
	cr_assert_not_null(dec);
	cr_assert_geq(pt_pkt_sync_forward(dec), 0);
	f->count = 0;
	while ((status = pt_pkt_next(dec, &f->packets[f->count],
				     sizeof(f->packets[0]))) >= 0)
		f->count++;
	cr_assert_eq(status, -pte_eos, "decode error %d", status);
	pt_pkt_free_decoder(dec);
}

static void stop(struct fixture *f)
{
	emu_pt_fini(&f->pt);
	emu_ring_fini(&f->ring);
	ps_buf_fini(&f->out);
}

Test(pt, ip_compression_choices)
{
	cr_expect_eq(emu_pt_ipc(0x401000, 0x401234), pt_ipc_update_16);
	cr_expect_eq(emu_pt_ipc(0x401000, 0x7f0000), pt_ipc_update_32);
	cr_expect_eq(emu_pt_ipc(0x401000, 0x7ffff7fc1000), pt_ipc_sext_48);
	cr_expect_eq(emu_pt_ipc(0, 0x555555555000), pt_ipc_sext_48);
	cr_expect_eq(emu_pt_ipc(0xffff800000000000ull, 0xffff900000000000ull),
		     pt_ipc_sext_48);
	cr_expect_eq(emu_pt_ipc(0x1000000000000ull, 0x1000012345678ull),
		     pt_ipc_update_32);
	cr_expect_eq(emu_pt_ipc(0x1000000000000ull, 0x1001000001234ull),
		     pt_ipc_update_48);
	cr_expect_eq(emu_pt_ipc(0, 0x8000000000000000ull), pt_ipc_full);
}

Test(pt, psb_plus_and_enable)
{
	struct fixture f;

	start(&f);
	cr_assert_eq(emu_pt_psb(&f.pt, false, 0), 0);
	cr_assert_eq(emu_pt_pge(&f.pt, 0x555555555123), 0);
	cr_assert_eq(emu_pt_tip(&f.pt, 0x555555555200), 0);
	decode(&f);
	cr_assert_eq(f.count, 6);
	cr_expect_eq(f.packets[0].type, ppt_psb);
	cr_expect_eq(f.packets[1].type, ppt_mode);
	cr_expect_eq(f.packets[1].payload.mode.bits.exec.csl, 1);
	cr_expect_eq(f.packets[2].type, ppt_psbend);
	cr_expect_eq(f.packets[3].type, ppt_mode, "MODE.Exec before PGE");
	cr_expect_eq(f.packets[4].type, ppt_tip_pge);
	cr_expect_eq(f.packets[4].payload.ip.ipc, pt_ipc_sext_48);
	cr_expect_eq(f.packets[4].payload.ip.ip, 0x555555555123);
	cr_expect_eq(f.packets[5].type, ppt_tip);
	cr_expect_eq(f.packets[5].payload.ip.ipc, pt_ipc_update_16);
	cr_expect_eq(f.packets[5].payload.ip.ip, 0x5200);
	stop(&f);
}

Test(pt, psb_with_fup_when_enabled)
{
	struct fixture f;

	start(&f);
	cr_assert_eq(emu_pt_psb(&f.pt, true, 0x401000), 0);
	decode(&f);
	cr_assert_eq(f.count, 4);
	cr_expect_eq(f.packets[2].type, ppt_fup);
	cr_expect_eq(f.packets[2].payload.ip.ip, 0x401000);
	cr_expect_eq(f.packets[3].type, ppt_psbend);
	stop(&f);
}

Test(pt, tnt_bits_oldest_first)
{
	struct fixture f;

	start(&f);
	emu_pt_psb(&f.pt, false, 0);
	/* 1,0,1,1,0,0 fills one TNT-8; then 1,1 stay pending.  */
	bool bits[] = { 1, 0, 1, 1, 0, 0, 1, 1 };
	for (size_t i = 0; i < 8; i++)
		emu_pt_tnt(&f.pt, bits[i]);
	decode(&f);
	cr_assert_eq(f.count, 5);
	cr_expect_eq(f.packets[3].type, ppt_tnt_8);
	cr_expect_eq(f.packets[3].payload.tnt.bit_size, 6);
	cr_expect_eq(f.packets[3].payload.tnt.payload, 0x2c); /* 101100 */
	cr_expect_eq(f.packets[4].payload.tnt.bit_size, 2);
	cr_expect_eq(f.packets[4].payload.tnt.payload, 0x3);
	stop(&f);
}

Test(pt, return_compression)
{
	struct fixture f;

	start(&f);
	emu_pt_psb(&f.pt, false, 0);
	emu_pt_pge(&f.pt, 0x1000);
	emu_pt_call(&f.pt, 0x1005);
	emu_pt_call(&f.pt, 0x2005);
	emu_pt_ret(&f.pt, 0x2005);     /* pairs: one TNT bit */
	emu_pt_ret(&f.pt, 0x3000);     /* does not pair: TIP */
	emu_pt_ret(&f.pt, 0x1005);     /* the older call still pairs */
	emu_pt_ret(&f.pt, 0x1005);     /* nothing left: TIP */
	decode(&f);
	cr_assert_eq(f.count, 9);
	cr_expect_eq(f.packets[5].type, ppt_tnt_8);
	cr_expect_eq(f.packets[5].payload.tnt.bit_size, 1);
	cr_expect_eq(f.packets[6].type, ppt_tip);
	cr_expect_eq(f.packets[6].payload.ip.ip, 0x3000);
	/* The TNT bit of the third return comes after the TIP.  */
	cr_expect_eq(f.packets[7].type, ppt_tnt_8);
	cr_expect_eq(f.packets[8].type, ppt_tip);
	cr_expect_eq(f.packets[8].payload.ip.ip, 0x1005);
	stop(&f);
}

Test(pt, psb_and_disable_forget_calls)
{
	struct fixture f;

	start(&f);
	emu_pt_psb(&f.pt, false, 0);
	emu_pt_pge(&f.pt, 0x1000);
	emu_pt_call(&f.pt, 0x1005);
	emu_pt_psb(&f.pt, true, 0x4000);
	emu_pt_ret(&f.pt, 0x1005);
	emu_pt_call(&f.pt, 0x4005);
	emu_pt_fup(&f.pt, 0x4100);
	emu_pt_pgd(&f.pt);
	emu_pt_pge(&f.pt, 0x4100);
	emu_pt_ret(&f.pt, 0x4005);
	decode(&f);
	int tips = 0, tnts = 0, pgd = -1;
	for (int i = 0; i < f.count; i++) {
		tips += f.packets[i].type == ppt_tip;
		tnts += f.packets[i].type == ppt_tnt_8;
		if (f.packets[i].type == ppt_tip_pgd)
			pgd = i;
	}
	cr_expect_eq(tips, 2, "both returns must be sent in full");
	cr_expect_eq(tnts, 0);
	cr_assert_geq(pgd, 0);
	cr_expect_eq(f.packets[pgd].payload.ip.ipc, pt_ipc_suppressed);
	cr_expect_eq(f.packets[pgd - 1].type, ppt_fup);
	stop(&f);
}

Test(pt, periodic_psb_due)
{
	struct fixture f;

	start(&f);
	emu_pt_psb(&f.pt, false, 0);
	cr_expect(!emu_pt_psb_due(&f.pt));
	emu_pt_pge(&f.pt, 0x1000);
	for (uint64_t i = 0; i < 2000; i++)
		emu_pt_tip(&f.pt, 0x100000 + i * 0x10000);
	cr_expect(emu_pt_psb_due(&f.pt));
	emu_pt_psb(&f.pt, true, 0x2000);
	cr_expect(!emu_pt_psb_due(&f.pt));
	stop(&f);
}

Test(pt, overflow_packet)
{
	struct fixture f;

	start(&f);
	emu_pt_psb(&f.pt, false, 0);
	emu_pt_tnt(&f.pt, true);
	emu_pt_ovf(&f.pt);
	decode(&f);
	cr_assert_eq(f.count, 5);
	cr_expect_eq(f.packets[3].type, ppt_tnt_8, "pending bits first");
	cr_expect_eq(f.packets[4].type, ppt_ovf);
	stop(&f);
}

/* The decoder forgets its last IP at an OVF: the IP after it must not
   be compressed against the one before (which would decode to an
   address with the wrong upper half), and the one after that may be. */
Test(pt, ip_after_overflow_is_uncompressed)
{
	struct fixture f;
	const uint64_t a = 0x7ffff7e16770ull, b = 0x7ffff7e168efull;

	start(&f);
	emu_pt_psb(&f.pt, false, 0);
	emu_pt_pge(&f.pt, a);
	emu_pt_ovf(&f.pt);
	emu_pt_fup(&f.pt, b);
	emu_pt_tip(&f.pt, b + 0x10);
	decode(&f);
	cr_assert_eq(f.count, 8);
	cr_assert_eq(f.packets[5].type, ppt_ovf);
	cr_assert_eq(f.packets[6].type, ppt_fup);
	cr_expect_eq(f.packets[6].payload.ip.ipc, pt_ipc_sext_48);
	cr_expect_eq(f.packets[6].payload.ip.ip, b & 0xffffffffffffull);
	cr_expect_eq(f.packets[7].payload.ip.ipc, pt_ipc_update_16,
		     "compression resumes after the full IP");
	stop(&f);
}

/* What libipt's encoder writes for PACKET, into BUF.  */
static size_t libipt_bytes(const struct pt_packet *packet, uint8_t *buf,
			   size_t size)
{
	struct pt_encoder *enc;
	struct pt_config config;
	int n;

	pt_config_init(&config);
	config.begin = buf;
	config.end = buf + size;
	enc = pt_alloc_encoder(&config);
	cr_assert_not_null(enc);
	n = pt_enc_next(enc, packet);
	cr_assert_gt(n, 0);
	pt_free_encoder(enc);
	return (size_t) n;
}

/* The bytes written since HEAD0 are libipt's for PACKET.  */
static void expect_libipt(struct fixture *f, uint64_t head0,
			  const struct pt_packet *packet)
{
	uint8_t want[32];
	size_t n = libipt_bytes(packet, want, sizeof(want));

	cr_assert_eq(f->ring.head - head0, n, "packet type %d ipc %d: %zu "
		     "bytes, libipt writes %zu", packet->type,
		     packet->payload.ip.ipc, (size_t) (f->ring.head - head0),
		     n);
	cr_expect_eq(memcmp(f->ring.data + head0, want, n), 0,
		     "packet type %d ipc %d differs", packet->type,
		     packet->payload.ip.ipc);
}

/* TNT-8 and the IP packets are written without libipt's encoder: byte
   for byte what it writes, in every compression.  */
Test(pt, packets_are_libipt_bytes)
{
	static const uint64_t pairs[][2] = {
		{ 0x401000, 0x401234 },
		{ 0x401000, 0x7f0000 },
		{ 0x401000, 0x7ffff7fc1000 },
		{ 0xffff800000000000ull, 0xffff900000000000ull },
		{ 0x1000000000000ull, 0x1001000001234ull },
		{ 0, 0x8000000000000000ull },
	};
	static const enum pt_packet_type types[] = { ppt_tip, ppt_fup };
	struct fixture f;

	start(&f);
	for (size_t p = 0; p < sizeof(pairs) / sizeof(pairs[0]); p++)
		for (size_t t = 0; t < 2; t++) {
			struct pt_packet packet = { .type = types[t] };
			enum pt_ip_compression ipc =
				emu_pt_ipc(pairs[p][0], pairs[p][1]);
			uint64_t head0 = f.ring.head;

			f.pt.last_ip = pairs[p][0];
			if (types[t] == ppt_tip)
				emu_pt_tip(&f.pt, pairs[p][1]);
			else
				emu_pt_fup(&f.pt, pairs[p][1]);
			packet.payload.ip.ipc = ipc;
			packet.payload.ip.ip = ipc == pt_ipc_full ? pairs[p][1]
				: pairs[p][1] & (ipc == pt_ipc_update_16 ?
						 0xffffull : ipc ==
						 pt_ipc_update_32 ?
						 0xffffffffull :
						 0xffffffffffffull);
			expect_libipt(&f, head0, &packet);
		}
	{
		struct pt_packet packet = { .type = ppt_tip_pgd };
		uint64_t head0 = f.ring.head;

		packet.payload.ip.ipc = pt_ipc_suppressed;
		emu_pt_pgd(&f.pt);
		expect_libipt(&f, head0, &packet);
	}
	{
		struct pt_packet packet = { .type = ppt_tip_pge };
		uint64_t head0;

		f.pt.last_ip = 0x401000;
		emu_pt_pge(&f.pt, 0x401234);
		/* MODE.Exec comes first (two bytes), then TIP.PGE.  */
		head0 = f.ring.head - 3;
		packet.payload.ip.ipc = pt_ipc_update_16;
		packet.payload.ip.ip = 0x1234;
		expect_libipt(&f, head0, &packet);
	}
	for (uint8_t count = 1; count <= 6; count++)
		for (uint64_t bits = 0; bits < (1u << count); bits++) {
			struct pt_packet packet = { .type = ppt_tnt_8 };
			uint64_t head0 = f.ring.head;

			for (uint8_t i = count; i-- > 0;)
				emu_pt_tnt(&f.pt, (bits >> i) & 1);
			emu_pt_flush(&f.pt);
			packet.payload.tnt.bit_size = count;
			packet.payload.tnt.payload = bits;
			expect_libipt(&f, head0, &packet);
		}
	stop(&f);
}

/* The time: a TSC packet flushes the pending TNT bits before it, as
   libipt reads it back, and every PSB+ after it repeats the last time
   written (a decoder syncing there knows it); none before any.  */
Test(pt, tsc_packets)
{
	struct fixture f;
	int tsc = -1, tnt = -1, npsb_tsc = 0;

	start(&f);
	emu_pt_psb(&f.pt, false, 0);                 /* no time yet */
	emu_pt_pge(&f.pt, 0x401000);
	emu_pt_tnt(&f.pt, true);
	cr_assert_eq(emu_pt_tsc(&f.pt, 0x123456789abcdull), 0);
	cr_expect_eq(f.pt.tsc, 0x123456789abcdull);
	emu_pt_psb(&f.pt, true, 0x401010);
	decode(&f);
	for (int i = 0; i < f.count; i++) {
		if (f.packets[i].type == ppt_tnt_8 && tnt < 0)
			tnt = i;
		if (f.packets[i].type == ppt_tsc && tsc < 0)
			tsc = i;
		if (f.packets[i].type == ppt_tsc) {
			cr_expect_eq(f.packets[i].payload.tsc.tsc,
				     0x123456789abcdull);
			npsb_tsc += i > 0 && f.packets[i - 1].type == ppt_psb;
		}
	}
	cr_assert_geq(tnt, 0);
	cr_expect_gt(tsc, tnt, "the TNT bit before the time");
	cr_expect_eq(npsb_tsc, 1, "the second PSB+ only has a TSC");
	cr_expect_eq(f.packets[0].type, ppt_psb);
	cr_expect_neq(f.packets[1].type, ppt_tsc);
	stop(&f);
}
