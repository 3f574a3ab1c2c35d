/* The packet history and `maint info btrace`, as GDB 13.1 prints them
   (gdb/btrace.c: the maint commands): PT packets decoded with libipt's
   packet decoder, pads skipped as GDB does by default; BTS blocks.  */
#include "btrace/bt_packets.h"
#include "common/ps_array.h"
#include "btrace/bt_history.h"
#include "btrace/bt_json.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static int bt_packets_push(struct bt_packets *p, size_t *cap,
			   const struct bt_packet *packet)
{
	if (PS_ARRAY_RESERVE(p->packets, *cap, p->count + 1))
		return -bte_nomem;
	p->packets[p->count++] = *packet;
	return 0;
}

/* GDB's loop: sync, take packets until an error, record the error as a
   packet, sync again; stop at the end.  */
static int bt_packets_decode(struct bt_packets *p, struct pt_packet_decoder *dec)
{
	size_t cap = 0;
	int status, errcode;

	for (;;) {
		struct bt_packet packet;

		status = pt_pkt_sync_forward(dec);
		if (status < 0)
			return 0;

		for (;;) {
			memset(&packet, 0, sizeof(packet));
			pt_pkt_get_offset(dec, &packet.offset);
			status = pt_pkt_next(dec, &packet.packet,
					     sizeof(packet.packet));
			if (status < 0)
				break;
			if (packet.packet.type == ppt_pad)
				continue;
			errcode = bt_packets_push(p, &cap, &packet);
			if (errcode < 0)
				return errcode;
		}
		if (status == -pte_eos)
			return 0;

		packet.errcode = pt_errcode(status);
		errcode = bt_packets_push(p, &cap, &packet);
		if (errcode < 0)
			return errcode;
	}
}

int bt_packets_alloc(struct bt_packets **pp, const struct bt_bundle *bundle,
		     struct bt_diag *diag)
{
	struct bt_packets *p;
	struct pt_packet_decoder *dec;
	struct pt_config config;
	int errcode;

	if (!pp || !bundle)
		return bt_diag_set(diag, bte_invalid, 0, 0, "bad arguments");
	p = calloc(1, sizeof(*p));
	if (!p)
		return bt_diag_set(diag, bte_nomem, 0, 0, "out of memory");
	p->format = bundle->format;

	if (bundle->format == btf_bts) {
		p->blocks = bundle->trace;
		p->count = bundle->trace_size / 16;
		*pp = p;
		return 0;
	}
	if (bundle->format != btf_pt || !bundle->trace_size) {
		*pp = p;
		return 0;
	}

	/* Like GDB: a zeroed configuration, errata for a known vendor.  */
	memset(&config, 0, sizeof(config));
	config.size = sizeof(config);
	config.begin = (uint8_t *) bundle->trace;
	config.end = (uint8_t *) bundle->trace + bundle->trace_size;
	if (bundle->cpu.vendor == btv_intel) {
		config.cpu.vendor = pcv_intel;
		config.cpu.family = bundle->cpu.family;
		config.cpu.model = bundle->cpu.model;
		config.cpu.stepping = bundle->cpu.stepping;
		if (pt_cpu_errata(&config.errata, &config.cpu) < 0) {
			free(p);
			return bt_diag_set(diag, bte_decode, 0, 0,
					   "cannot configure the decoder");
		}
	}

	dec = pt_pkt_alloc_decoder(&config);
	if (!dec) {
		free(p);
		return bt_diag_set(diag, bte_nomem, 0, 0,
				   "cannot allocate the packet decoder");
	}
	errcode = bt_packets_decode(p, dec);
	pt_pkt_free_decoder(dec);
	if (errcode < 0) {
		bt_packets_free(p);
		return bt_diag_set(diag, -errcode, 0, 0, "%s",
				   bt_errstr(errcode));
	}
	*pp = p;
	return 0;
}

void bt_packets_free(struct bt_packets *p)
{
	if (!p)
		return;
	free(p->packets);
	free(p);
}

size_t bt_packets_count(const struct bt_packets *p)
{
	return p ? p->count : 0;
}

/* GDB's pt_print_packet.  */
static void bt_print_pt_packet(FILE *out, const struct pt_packet *pk)
{
	switch (pk->type) {
	default:
		fprintf(out, "[??: %x]", pk->type);
		break;
	case ppt_psb: fputs("psb", out); break;
	case ppt_psbend: fputs("psbend", out); break;
	case ppt_pad: fputs("pad", out); break;
	case ppt_tip:
		fprintf(out, "tip %u: 0x%" PRIx64, pk->payload.ip.ipc,
			pk->payload.ip.ip);
		break;
	case ppt_tip_pge:
		fprintf(out, "tip.pge %u: 0x%" PRIx64, pk->payload.ip.ipc,
			pk->payload.ip.ip);
		break;
	case ppt_tip_pgd:
		fprintf(out, "tip.pgd %u: 0x%" PRIx64, pk->payload.ip.ipc,
			pk->payload.ip.ip);
		break;
	case ppt_fup:
		fprintf(out, "fup %u: 0x%" PRIx64, pk->payload.ip.ipc,
			pk->payload.ip.ip);
		break;
	case ppt_tnt_8:
		fprintf(out, "tnt-8 %u: 0x%" PRIx64, pk->payload.tnt.bit_size,
			pk->payload.tnt.payload);
		break;
	case ppt_tnt_64:
		fprintf(out, "tnt-64 %u: 0x%" PRIx64, pk->payload.tnt.bit_size,
			pk->payload.tnt.payload);
		break;
	case ppt_pip:
		fprintf(out, "pip %" PRIx64 "%s", pk->payload.pip.cr3,
			pk->payload.pip.nr ? " nr" : "");
		break;
	case ppt_tsc:
		fprintf(out, "tsc %" PRIx64, pk->payload.tsc.tsc);
		break;
	case ppt_cbr:
		fprintf(out, "cbr %u", pk->payload.cbr.ratio);
		break;
	case ppt_mode:
		switch (pk->payload.mode.leaf) {
		default:
			fprintf(out, "mode %u", pk->payload.mode.leaf);
			break;
		case pt_mol_exec:
			fprintf(out, "mode.exec%s%s",
				pk->payload.mode.bits.exec.csl ? " cs.l" : "",
				pk->payload.mode.bits.exec.csd ? " cs.d" : "");
			break;
		case pt_mol_tsx:
			fprintf(out, "mode.tsx%s%s",
				pk->payload.mode.bits.tsx.intx ? " intx" : "",
				pk->payload.mode.bits.tsx.abrt ? " abrt" : "");
			break;
		}
		break;
	case ppt_ovf: fputs("ovf", out); break;
	case ppt_stop: fputs("stop", out); break;
	case ppt_vmcs:
		fprintf(out, "vmcs %" PRIx64, pk->payload.vmcs.base);
		break;
	case ppt_tma:
		fprintf(out, "tma %x %x", pk->payload.tma.ctc,
			pk->payload.tma.fc);
		break;
	case ppt_mtc:
		fprintf(out, "mtc %x", pk->payload.mtc.ctc);
		break;
	case ppt_cyc:
		fprintf(out, "cyc %" PRIx64, pk->payload.cyc.value);
		break;
	case ppt_mnt:
		fprintf(out, "mnt %" PRIx64, pk->payload.mnt.payload);
		break;
	}
}

static uint64_t bt_le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; --i)
		v = (v << 8) | p[i];
	return v;
}

/* Packet INDEX as a JSON list entry; LIST is NULL for GDB's text.  */
static void bt_print_packet(FILE *out, const struct bt_packets *p,
			    unsigned int index, struct bt_json_list *list)
{
	if (p->format == btf_bts) {
		/* The bundle has the newest block first; GDB keeps the oldest
		   at index 0 (btrace_data_append).  */
		size_t at = 16 * (p->count - 1 - (size_t) index);
		uint64_t begin = bt_le64(p->blocks + at);
		uint64_t end = bt_le64(p->blocks + at + 8);

		/* jansson's integers are signed: an address above 2^63
		   would print negative (user-space addresses never are).  */
		if (list)
			bt_json_list_add(list, json_pack("{s:I, s:I, s:I}",
				"index", (json_int_t) index,
				"begin", (json_int_t) begin,
				"end", (json_int_t) end));
		else
			fprintf(out, "%u\tbegin: 0x%" PRIx64 ", end: 0x%" PRIx64
				"\n", index, begin, end);
		return;
	}

	const struct bt_packet *pk = &p->packets[index];

	if (list) {
		char *text = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&text, &len);

		if (mem) {
			if (pk->errcode)
				fprintf(mem, "[error: %s]",
					pt_errstr(pk->errcode));
			else
				bt_print_pt_packet(mem, &pk->packet);
			fclose(mem);
		}
		bt_json_list_add(list, json_pack("{s:I, s:I, s:o}",
			"index", (json_int_t) index,
			"offset", (json_int_t) pk->offset,
			"packet", bt_json_text(text ? text : "")));
		free(text);
		return;
	}

	fprintf(out, "%u\t0x%" PRIx64 "\t", index, pk->offset);
	if (pk->errcode)
		fprintf(out, "[error: %s]", pt_errstr(pk->errcode));
	else
		bt_print_pt_packet(out, &pk->packet);
	fputc('\n', out);
}

/* GDB's maint_btrace_packet_history_cmd window, without prior history
   (from = to = 0): the range [*FROM, *TO) of RANGE (see
   bt_packet_history_parse) in a trace of END packets.  */
static void bt_packet_window(const struct bt_call_range *range,
			     unsigned int end, unsigned int *pfrom,
			     unsigned int *pto)
{
	unsigned int size = 10, from = 0, to = 0, begin = 0;

	switch (range->kind) {
	case btcr_default:
		if (end - from < size)
			size = end - from;
		to = from + size;
		break;
	case btcr_backward:
		if (to - begin < size)
			size = to - begin;
		from = to - size;
		break;
	case btcr_from:
		from = (unsigned int) range->begin;
		if (range->has_count) {
			/* GDB compares the int unsigned.  */
			size = (unsigned int) llabs(range->count);
			if (range->count < 0) {
				/* Include the first argument's.  */
				from += 1;
				to = from;
				if (to - begin < size)
					size = to - begin;
				from = to - size;
				break;
			}
		}
		if (end - from < size)
			size = end - from;
		to = from + size;
		break;
	case btcr_between:
		from = (unsigned int) range->begin;
		to = (unsigned int) range->end;
		to = to < end ? to + 1 : end;
		break;
	}
	*pfrom = from;
	*pto = to;
}

static int bt_packet_history_run(FILE *out, const struct bt_packets *p,
				 const char *range, int json,
				 struct bt_diag *diag)
{
	unsigned int from = 0, to = 0;
	struct bt_json_list *list;
	struct bt_call_range window;
	int errcode;

	if (!out || !p)
		return bt_diag_set(diag, bte_invalid, 0, 0, "bad arguments");
	if (!p->count) {
		/* GDB prints this as output, not as an error.  */
		if (json)
			bt_print_edge(out, 1, 1);
		else
			fputs("No trace.\n", out);
		return 0;
	}

	errcode = bt_packet_history_parse(range, (unsigned int) p->count,
					  &window, diag);
	if (errcode < 0)
		return errcode;
	bt_packet_window(&window, (unsigned int) p->count, &from, &to);

	if (!json) {
		for (unsigned int i = from; i < to; ++i)
			bt_print_packet(out, p, i, NULL);
		return 0;
	}
	list = malloc(sizeof(*list));
	if (!list)
		return bt_diag_set(diag, bte_nomem, 0, 0, "out of memory");
	bt_json_list_init(list, out, "");
	for (unsigned int i = from; i < to; ++i)
		bt_print_packet(out, p, i, list);
	errcode = bt_json_list_fini(list, "\n");
	free(list);
	if (errcode < 0)
		return bt_diag_set(diag, bte_nomem, 0, 0,
				   "cannot write a JSON packet");
	return 0;
}

int bt_packet_history_print(FILE *out, const struct bt_packets *p,
			    const char *range, struct bt_diag *diag)
{
	return bt_packet_history_run(out, p, range, 0, diag);
}

int bt_packet_history_print_json(FILE *out, const struct bt_packets *p,
				 const char *range, struct bt_diag *diag)
{
	return bt_packet_history_run(out, p, range, 1, diag);
}

int bt_maint_info_print(FILE *out, const struct bt_packets *p)
{
	struct pt_version v;

	if (!out || !p)
		return -bte_invalid;
	switch (p->format) {
	case btf_bts:
		fprintf(out, "Format: Branch Trace Store.\n"
			"Number of packets: %zu.\n", p->count);
		return 0;
	case btf_pt:
		v = pt_library_version();
		fprintf(out, "Format: Intel Processor Trace.\n"
			"Version: %u.%u.%u%s.\n"
			"Number of packets: %zu.\n", v.major, v.minor, v.build,
			v.ext ? v.ext : "", p->count);
		return 0;
	default:
		return -bte_unsupported;
	}
}
