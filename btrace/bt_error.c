/* Error texts and diagnostics for libptbundle and libptbtrace.  */
#include "btrace/ptbundle.h"

#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

const char *bt_errstr(int code)
{
	switch (code < 0 ? -code : code) {
	case bte_ok: return "success";
	case bte_internal: return "internal error";
	case bte_invalid: return "invalid argument";
	case bte_nomem: return "out of memory";
	case bte_io: return "input/output error";
	case bte_bad_magic: return "not a trace bundle";
	case bte_bad_version: return "unsupported bundle version";
	case bte_truncated: return "truncated input";
	case bte_bad_checksum: return "checksum mismatch";
	case bte_bad_record: return "malformed bundle record";
	case bte_bad_xml: return "malformed XML";
	case bte_bad_elf: return "unusable ELF file";
	case bte_decode: return "trace decode error";
	case bte_no_trace: return "no trace";
	case bte_range: return "out of range";
	case bte_notfound: return "not found";
	case bte_unsupported: return "not supported";
	}
	return "unknown error";
}

void bt_diag_init(struct bt_diag *diag)
{
	if (diag)
		memset(diag, 0, sizeof(*diag));
}

int bt_diag_set(struct bt_diag *diag, int code, int has_offset,
		uint64_t offset, const char *fmt, ...)
{
	va_list ap;

	if (diag) {
		diag->has_offset = has_offset;
		diag->offset = offset;
		va_start(ap, fmt);
		vsnprintf(diag->text, sizeof(diag->text), fmt, ap);
		va_end(ap);
	}
	return -code;
}

void bt_diag_print(const struct bt_diag *diag, const char *prefix, FILE *out)
{
	if (!diag || !out)
		return;
	if (prefix)
		fprintf(out, "%s: ", prefix);
	if (diag->has_offset)
		fprintf(out, "at offset 0x%" PRIx64 ": ", diag->offset);
	fprintf(out, "%s\n", diag->text[0] ? diag->text : "error");
}
