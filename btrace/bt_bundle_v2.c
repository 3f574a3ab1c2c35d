/* The records version 2 bundles add: the trigger, the process, the core
   (registers and memory), the auxiliary vector, the side-band, what
   the recorder kept of ended threads, and (version 3) the time.  Each is
   bounds-checked like the version 1 ones (bt_bundle.c).  */
#include "btrace/bt_bundle_int.h"
#include "btrace/bt_bundle_format.h"

#include <inttypes.h>
#include <string.h>

const char *bt_trigger_name(uint32_t kind)
{
	switch (kind) {
	case btt_save: return "save";
	case btt_request: return "request";
	case btt_signal: return "signal";
	case btt_function: return "function";
	case btt_exit: return "exit";
	case btt_full: return "full";
	}
	return "none";
}

int bt_bundle_select_thread(struct bt_bundle *bundle, int32_t tid)
{
	if (!bundle)
		return -bte_invalid;
	for (size_t i = 0; i < bundle->nthreads; ++i) {
		const struct bt_thread *t = &bundle->threads[i];

		if (t->tid != tid)
			continue;
		bundle->tid = t->tid;
		bundle->has_pc = t->has_pc;
		bundle->pc = t->pc;
		bundle->trace = t->trace;
		bundle->trace_size = t->trace_size;
		return 0;
	}
	return -bte_notfound;
}

static int bt_at_least(const struct bt_record *rec, uint32_t fixed,
		       const char *what, struct bt_diag *diag)
{
	if (rec->length < fixed)
		return bt_diag_set(diag, bte_bad_record, 1, rec->offset - 4,
				   "%s record has %" PRIu32 " bytes, at least "
				   "%" PRIu32 " needed", what, rec->length,
				   fixed);
	return 0;
}

static int bt_exact(const struct bt_record *rec, uint64_t want,
		    const char *what, struct bt_diag *diag)
{
	if (rec->length != want)
		return bt_diag_set(diag, bte_bad_record, 1, rec->offset - 4,
				   "%s record has %" PRIu32 " bytes, its "
				   "fields need %" PRIu64, what, rec->length,
				   want);
	return 0;
}

static int bt_parse_trigger(struct bt_bundle *b, const struct bt_record *rec,
			    char **pool, struct bt_diag *diag)
{
	const uint8_t *p = rec->payload;
	struct bt_trigger *t = &b->trigger;
	size_t nlen;
	int errcode;

	errcode = bt_at_least(rec, BT_TRIGGER_FIXED_SIZE, "trigger", diag);
	if (errcode < 0)
		return errcode;
	t->kind = (uint32_t) bt_get_le(p, 4);
	if (t->kind < btt_save || t->kind > btt_full)
		return bt_diag_set(diag, bte_bad_record, 1, rec->offset,
				   "unknown trigger kind %" PRIu32, t->kind);
	t->tid = (int32_t) (uint32_t) bt_get_le(p + 4, 4);
	t->signal = (int32_t) (uint32_t) bt_get_le(p + 8, 4);
	if (t->tid < 0 || t->signal < 0 || t->signal > 64)
		return bt_diag_set(diag, bte_bad_record, 1, rec->offset + 4,
				   "bad trigger thread %" PRId32 " or signal %"
				   PRId32, t->tid, t->signal);
	t->sequence = (uint32_t) bt_get_le(p + 12, 4);
	t->address = bt_get_le(p + 16, 8);
	nlen = bt_get_le(p + 24, 2);
	if (nlen > BT_MAX_NAME || bt_get_le(p + 26, 2) || bt_get_le(p + 28, 4))
		return bt_diag_set(diag, bte_bad_record, 1, rec->offset + 24,
				   "bad trigger name size %zu or reserved "
				   "fields", nlen);
	errcode = bt_exact(rec, BT_TRIGGER_FIXED_SIZE + nlen, "trigger", diag);
	if (errcode < 0)
		return errcode;
	t->name = *pool;
	return bt_take_string(p + BT_TRIGGER_FIXED_SIZE, nlen,
			      rec->offset + BT_TRIGGER_FIXED_SIZE, pool,
			      "trigger name", diag);
}

static int bt_parse_process(struct bt_bundle *b, const struct bt_record *rec,
			    char **pool, struct bt_diag *diag)
{
	const uint8_t *p = rec->payload;
	size_t plen;
	int errcode;

	errcode = bt_at_least(rec, BT_PROCESS_FIXED_SIZE, "process", diag);
	if (errcode < 0)
		return errcode;
	if ((int32_t) (uint32_t) bt_get_le(p, 4) != b->pid)
		return bt_diag_set(diag, bte_bad_record, 1, rec->offset,
				   "process record of process %" PRId32
				   " in a bundle of process %" PRId32,
				   (int32_t) (uint32_t) bt_get_le(p, 4),
				   b->pid);
	plen = bt_get_le(p + 4, 4);
	if (!plen || plen > BT_MAX_PATH)
		return bt_diag_set(diag, bte_bad_record, 1, rec->offset + 4,
				   "program path of %zu bytes (1 to %d)", plen,
				   BT_MAX_PATH);
	errcode = bt_exact(rec, BT_PROCESS_FIXED_SIZE + plen, "process", diag);
	if (errcode < 0)
		return errcode;
	b->exe = *pool;
	return bt_take_string(p + BT_PROCESS_FIXED_SIZE, plen,
			      rec->offset + BT_PROCESS_FIXED_SIZE, pool,
			      "program path", diag);
}

static int bt_parse_regs(struct bt_core_thread *t, const struct bt_record *rec,
			 struct bt_diag *diag)
{
	const uint8_t *p = rec->payload;
	int errcode;

	errcode = bt_at_least(rec, BT_REGS_FIXED_SIZE, "regs", diag);
	if (errcode < 0)
		return errcode;
	t->tid = (int32_t) (uint32_t) bt_get_le(p, 4);
	t->signal = (int32_t) (uint32_t) bt_get_le(p + 4, 4);
	t->regs_size = bt_get_le(p + 8, 4);
	if (t->tid <= 0 || t->signal < 0 || t->signal > 64)
		return bt_diag_set(diag, bte_bad_record, 1, rec->offset,
				   "bad regs thread %" PRId32 " or signal %"
				   PRId32, t->tid, t->signal);
	if (t->regs_size > BT_MAX_REGS || bt_get_le(p + 12, 4))
		return bt_diag_set(diag, bte_bad_record, 1, rec->offset + 8,
				   "registers of %zu bytes (at most %d)",
				   t->regs_size, BT_MAX_REGS);
	errcode = bt_exact(rec, BT_REGS_FIXED_SIZE + t->regs_size, "regs",
			   diag);
	if (errcode < 0)
		return errcode;
	t->regs = p + BT_REGS_FIXED_SIZE;
	return 0;
}

static int bt_parse_sideband(struct bt_sideband *e, const struct bt_record *rec,
			     char **pool, struct bt_diag *diag)
{
	const uint8_t *p = rec->payload;
	size_t idlen, plen;
	int errcode;

	errcode = bt_at_least(rec, BT_SIDEBAND_FIXED_SIZE, "sideband", diag);
	if (errcode < 0)
		return errcode;
	e->kind = (uint32_t) bt_get_le(p, 4);
	if (e->kind < bts_exec || e->kind > bts_unmap)
		return bt_diag_set(diag, bte_bad_record, 1, rec->offset,
				   "unknown side-band kind %" PRIu32, e->kind);
	e->tid = (int32_t) (uint32_t) bt_get_le(p + 4, 4);
	e->address = bt_get_le(p + 8, 8);
	e->size = bt_get_le(p + 16, 8);
	e->offset = bt_get_le(p + 24, 8);
	e->prot = (uint32_t) bt_get_le(p + 32, 4);
	idlen = bt_get_le(p + 36, 2);
	plen = bt_get_le(p + 38, 2);
	if (e->prot & ~7u)
		return bt_diag_set(diag, bte_bad_record, 1, rec->offset + 32,
				   "unknown protection bits 0x%" PRIx32,
				   e->prot);
	if (idlen > BT_MAX_BUILD_ID || plen > BT_MAX_PATH)
		return bt_diag_set(diag, bte_bad_record, 1, rec->offset + 36,
				   "side-band build-id of %zu or path of %zu "
				   "bytes", idlen, plen);
	errcode = bt_exact(rec, BT_SIDEBAND_FIXED_SIZE + idlen + plen,
			   "sideband", diag);
	if (errcode < 0)
		return errcode;
	e->build_id_size = idlen;
	e->build_id = idlen ? p + BT_SIDEBAND_FIXED_SIZE : NULL;
	e->path = *pool;
	return bt_take_string(p + BT_SIDEBAND_FIXED_SIZE + idlen, plen,
			      rec->offset + BT_SIDEBAND_FIXED_SIZE + idlen,
			      pool, "side-band path", diag);
}

static int bt_parse_ended(struct bt_ended *e, const struct bt_record *rec,
			  struct bt_diag *diag)
{
	const uint8_t *p = rec->payload;
	int errcode;

	errcode = bt_exact(rec, BT_ENDED_PAYLOAD_SIZE, "ended", diag);
	if (errcode < 0)
		return errcode;
	e->budget = bt_get_le(p, 8);
	e->dropped = (uint32_t) bt_get_le(p + 8, 4);
	e->dropped_bytes = bt_get_le(p + 16, 8);
	if (!e->budget || bt_get_le(p + 12, 4) ||
	    (!e->dropped && e->dropped_bytes))
		return bt_diag_set(diag, bte_bad_record, 1, rec->offset,
				   "bad ended record: budget %" PRIu64 ", %"
				   PRIu32 " threads dropped, %" PRIu64
				   " bytes", e->budget, e->dropped,
				   e->dropped_bytes);
	return 0;
}

/* Version 3's time: perf's conversion, checked as perf would use it.  */
static int bt_parse_time(struct bt_time *t, const struct bt_record *rec,
			 struct bt_diag *diag)
{
	const uint8_t *p = rec->payload;
	int errcode;

	errcode = bt_exact(rec, BT_TIME_PAYLOAD_SIZE, "time", diag);
	if (errcode < 0)
		return errcode;
	t->zero = bt_get_le(p, 8);
	t->mult = (uint32_t) bt_get_le(p + 8, 4);
	t->shift = (uint16_t) bt_get_le(p + 12, 2);
	if (!t->mult || t->shift > 32 || bt_get_le(p + 14, 2))
		return bt_diag_set(diag, bte_bad_record, 1, rec->offset,
				   "bad time record: mult %" PRIu32
				   ", shift %u", t->mult, t->shift);
	return 0;
}

uint64_t bt_time_ns(const struct bt_time *time, uint64_t tsc)
{
	uint64_t quot = tsc >> time->shift;
	uint64_t rem = tsc & ((1ull << time->shift) - 1);

	return time->zero + quot * time->mult +
		((rem * time->mult) >> time->shift);
}

int bt_parse_v2_record(struct bt_bundle *b, struct bt_bundle_storage *st,
		       const struct bt_record *rec, char **pool,
		       struct bt_diag *diag)
{
	switch (rec->type) {
	case btr_trigger:
		return bt_parse_trigger(b, rec, pool, diag);
	case btr_process:
		return bt_parse_process(b, rec, pool, diag);
	case btr_regs:
		return bt_parse_regs(&st->core_threads[st->ncore_threads++],
				     rec, diag);
	case btr_memory:
		return bt_parse_pages(&st->core_pages[st->ncore_pages++], rec,
				      st->copy, pool, diag);
	case btr_auxv:
		b->auxv = rec->length ? rec->payload : NULL;
		b->auxv_size = rec->length;
		return 0;
	case btr_sideband:
		return bt_parse_sideband(&st->sideband[st->nsideband++], rec,
					 pool, diag);
	case btr_ended:
		return bt_parse_ended(&b->ended, rec, diag);
	case btr_time:
		return bt_parse_time(&b->time, rec, diag);
	}
	return bt_diag_set(diag, bte_internal, 1, rec->offset - 8,
			   "record type %" PRIu32 " has no parser", rec->type);
}
