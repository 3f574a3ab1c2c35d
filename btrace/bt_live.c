/* A trace bundle from a live stub, read with GDB's packets: the stopped
   thread (?, Hg), its trace configuration and trace (qXfer btrace-conf
   and btrace; tracing is enabled and disabled again if it was off), its
   pc (p), the process's mappings (vFile of /proc/PID/maps; the files
   must be at the same paths here) and copies of its vDSO (m).  */
#include "btrace/bt_rsp.h"
#include "common/ps_array.h"

#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>
#include <sys/mman.h>

struct bt_live {
	struct bt_rsp *rsp;
	struct bt_bundle b;
	struct bt_mapping *maps;
	struct bt_pages *pages;
	char *maps_text;
	struct bt_xml_btrace trace;
};

/* The thread of the stop reply: "thread:pPID.TID;" or "thread:TID;".  */
static int bt_live_thread(struct bt_live *l, struct bt_diag *diag)
{
	const char *reply, *t;
	char command[64];
	unsigned long pid, tid;
	char *end;
	int errcode = bt_rsp_request(l->rsp, "?", &reply, NULL, diag);

	if (errcode < 0)
		return errcode;
	t = strstr(reply, "thread:");
	if (reply[0] != 'T' || !t)
		return bt_diag_set(diag, bte_no_trace, 0, 0, "the stub has no "
				   "stopped thread (it said '%s')", reply);
	t += 7;
	if (*t == 'p') {
		pid = strtoul(t + 1, &end, 16);
		tid = *end == '.' ? strtoul(end + 1, &end, 16) : pid;
	} else
		pid = tid = strtoul(t, &end, 16);
	l->b.pid = (int32_t) pid;
	l->b.tid = (int32_t) tid;
	snprintf(command, sizeof(command), "Hgp%lx.%lx", pid, tid);
	errcode = bt_rsp_request(l->rsp, command, &reply, NULL, diag);
	if (errcode >= 0 && strcmp(reply, "OK") != 0)
		errcode = bt_diag_set(diag, bte_notfound, 0, 0,
				      "%s: the stub said '%s'", command, reply);
	return errcode;
}

/* rip is register 16 of amd64; its value in target (little) order.  */
static void bt_live_pc(struct bt_live *l)
{
	const char *reply;
	uint64_t pc = 0;

	if (bt_rsp_request(l->rsp, "p10", &reply, NULL, NULL) < 0 ||
	    strlen(reply) != 16)
		return;
	for (int i = 7; i >= 0; --i) {
		char byte[3] = { reply[2 * i], reply[2 * i + 1], 0 };

		pc = (pc << 8) | strtoul(byte, NULL, 16);
	}
	l->b.pc = pc;
	l->b.has_pc = 1;
}

static int bt_live_trace(struct bt_live *l, struct bt_diag *diag)
{
	enum bt_format format;
	uint32_t size;
	char *xml;
	size_t len;
	const char *reply;
	int enabled = 0, errcode;

	/* A thread that is not traced has no configuration (an error).  */
	errcode = bt_rsp_qxfer(l->rsp, "btrace-conf", "", &xml, &len, diag);
	if (errcode == -bte_notfound) {
		format = btf_none;
		size = 0;
	} else if (errcode < 0)
		return errcode;
	else {
		errcode = bt_xml_parse_conf(xml, len, &format, &size, diag);
		free(xml);
		if (errcode < 0)
			return errcode;
	}
	if (format == btf_none) {
		/* Not tracing: enable it as GDB's record btrace pt does.  */
		errcode = bt_rsp_request(l->rsp, "Qbtrace:pt", &reply, NULL,
					 diag);
		if (errcode < 0)
			return errcode;
		if (strcmp(reply, "OK") != 0)
			return bt_diag_set(diag, bte_unsupported, 0, 0,
					   "Qbtrace:pt: the stub said '%s'",
					   reply);
		enabled = 1;
		errcode = bt_rsp_qxfer(l->rsp, "btrace-conf", "", &xml, &len,
				       diag);
		if (errcode >= 0) {
			bt_xml_parse_conf(xml, len, &format, &size, NULL);
			free(xml);
		}
	}
	l->b.buffer_size = size;

	errcode = bt_rsp_qxfer(l->rsp, "btrace", "all", &xml, &len, diag);
	if (errcode >= 0) {
		errcode = bt_xml_parse_btrace(xml, len, &l->trace, diag);
		free(xml);
	}
	if (enabled)
		bt_rsp_request(l->rsp, "Qbtrace:off", &reply, NULL, NULL);
	if (errcode < 0)
		return errcode;
	l->b.format = l->trace.format == btf_none ? format : l->trace.format;
	if (l->b.format == btf_none)
		l->b.format = btf_pt;
	l->b.cpu = l->trace.cpu;
	l->b.trace = l->trace.trace;
	l->b.trace_size = l->trace.trace_size;
	return 0;
}

/* SIZE bytes at ADDRESS with m packets, into a malloc'ed copy.  */
static uint8_t *bt_live_memory(struct bt_live *l, uint64_t address,
			       uint64_t size)
{
	uint8_t *bytes = size <= (1u << 20) ? malloc(size) : NULL;
	uint64_t done = 0;

	while (bytes && done < size) {
		char command[64];
		const char *reply;
		size_t len, n = size - done > 0x800 ? 0x800
			: (size_t) (size - done);

		snprintf(command, sizeof(command), "m%llx,%zx",
			 (unsigned long long) (address + done), n);
		if (bt_rsp_request(l->rsp, command, &reply, &len, NULL) < 0 ||
		    len != 2 * n) {
			free(bytes);
			return NULL;
		}
		for (size_t i = 0; i < n; ++i) {
			char byte[3] = { reply[2 * i], reply[2 * i + 1], 0 };

			bytes[done + i] = (uint8_t) strtoul(byte, NULL, 16);
		}
		done += n;
	}
	return bytes;
}

/* A mapping named for a file that cannot be opened by that name.  */
static bool bt_live_no_file(const char *path)
{
	size_t n = strlen(path), d = sizeof(" (deleted)") - 1;

	return strncmp(path, "/memfd:", 7) == 0 ||
		(n > d && strcmp(path + n - d, " (deleted)") == 0);
}

/* A copy of the live memory at [LO, LO+SIZE), kept as pages NAME; a
   range that cannot be read is left out.  */
static int bt_live_copy(struct bt_live *l, uint64_t lo, uint64_t size,
			uint32_t prot, const char *name, size_t *pcap,
			struct bt_diag *diag)
{
	uint8_t *bytes = bt_live_memory(l, lo, size);

	if (!bytes)
		return 0;
	if (PS_ARRAY_RESERVE(l->pages, *pcap, l->b.npages + 1)) {
		free(bytes);
		return bt_diag_set(diag, bte_nomem, 0, 0, "out of memory");
	}
	l->pages[l->b.npages++] = (struct bt_pages) { lo, size, prot, name,
						      bytes };
	return 0;
}

static int bt_live_maps(struct bt_live *l, struct bt_diag *diag)
{
	char path[64], *line, *save = NULL;
	size_t size, cap = 0, pcap = 0;
	int errcode;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int) l->b.pid);
	errcode = bt_rsp_read_file(l->rsp, path, &l->maps_text, &size, diag);
	if (errcode < 0)
		return errcode;
	for (line = strtok_r(l->maps_text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		unsigned long long lo, hi, offset;
		char perms[8];
		int name = 0;
		uint32_t prot;

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &lo, &hi,
			   perms, &offset, &name) < 4 || !name)
			continue;
		prot = (perms[0] == 'r' ? PROT_READ : 0) |
			(perms[1] == 'w' ? PROT_WRITE : 0) |
			(perms[2] == 'x' ? PROT_EXEC : 0);
		if (bt_live_no_file(line + name)) {
			/* No file to open: a memfd, or a file removed since.
			   Its code is copied, as the vDSO's; ptstub's own
			   code cache never appears in a trace.  */
			if (!(prot & PROT_EXEC) ||
			    strncmp(line + name, "/memfd:ptstub ", 14) == 0)
				continue;
			errcode = bt_live_copy(l, lo, hi - lo, prot, "",
					       &pcap, diag);
			if (errcode < 0)
				return errcode;
		} else if (line[name] == '/') {
			if (PS_ARRAY_RESERVE(l->maps, cap, l->b.nmappings + 1))
				return bt_diag_set(diag, bte_nomem, 0, 0,
						   "out of memory");
			l->maps[l->b.nmappings++] = (struct bt_mapping) {
				lo, hi - lo, offset, prot, line + name, NULL,
				0 };
		} else if ((prot & PROT_EXEC) &&
			   strcmp(line + name, "[vdso]") == 0) {
			errcode = bt_live_copy(l, lo, hi - lo, prot, "[vdso]",
					       &pcap, diag);
			if (errcode < 0)
				return errcode;
		}
	}
	l->b.mappings = l->maps;
	l->b.pages = l->pages;
	return 0;
}

static void bt_live_fini(struct bt_live *l)
{
	for (size_t i = 0; i < l->b.npages; ++i)
		free((void *) l->pages[i].bytes);
	free(l->pages);
	free(l->maps);
	free(l->maps_text);
	bt_xml_btrace_fini(&l->trace);
	bt_rsp_close(l->rsp);
}

int bt_live_load(struct bt_bundle *bundle, const char *hostport,
		 struct bt_diag *diag)
{
	struct bt_live l;
	uint8_t *data = NULL;
	size_t size = 0;
	int errcode;

	if (!bundle)
		return bt_diag_set(diag, bte_invalid, 0, 0, "bad arguments");
	memset(bundle, 0, sizeof(*bundle));
	memset(&l, 0, sizeof(l));
	errcode = bt_rsp_open(&l.rsp, hostport, diag);
	if (errcode >= 0)
		errcode = bt_live_thread(&l, diag);
	if (errcode >= 0)
		errcode = bt_live_trace(&l, diag);
	if (errcode >= 0) {
		bt_live_pc(&l);
		errcode = bt_live_maps(&l, diag);
	}
	/* Through the bundle format: the reader then owns one copy.  */
	if (errcode >= 0) {
		errcode = bt_bundle_encode(&l.b, &data, &size);
		if (errcode < 0)
			bt_diag_set(diag, -errcode, 0, 0, "%s: %s", hostport,
				    bt_errstr(errcode));
	}
	if (errcode >= 0)
		errcode = bt_bundle_parse(bundle, data, size, diag);
	free(data);
	bt_live_fini(&l);
	return errcode;
}
