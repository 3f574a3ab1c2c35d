#include "xml/btrace_xml.h"
#include "common/ps_buf.h"
#include "common/ps_error.h"

#include <inttypes.h>

static const char btrace_head[] =
	"<!DOCTYPE btrace SYSTEM \"btrace.dtd\">\n"
	"<btrace version=\"1.0\">\n";
static const char btrace_tail[] = "</btrace>\n";

/* Longest <block .../> line: two 16-digit addresses plus the markup.  */
#define BLOCK_LINE_MAX 64

int btrace_xml_bts(struct ps_buf *out, const struct trace_block *blocks,
		   size_t n)
{
	int err;

	if (n && !blocks)
		return -pse_invalid;
	if (n > (SIZE_MAX - 256) / BLOCK_LINE_MAX)
		return -pse_nomem;
	err = ps_buf_reserve(out, sizeof(btrace_head) + sizeof(btrace_tail)
			     + n * BLOCK_LINE_MAX);
	if (err < 0)
		return err;

	err = ps_buf_puts(out, btrace_head);
	for (size_t i = n; i > 0 && !err; i--)
		err = ps_buf_printf(out,
				    "<block begin=\"0x%" PRIx64
				    "\" end=\"0x%" PRIx64 "\"/>\n",
				    blocks[i - 1].begin, blocks[i - 1].end);
	if (!err)
		err = ps_buf_puts(out, btrace_tail);
	return err;
}

static int put_cpu(struct ps_buf *out, const struct trace_cpu *cpu)
{
	int err;

	if (!cpu || !cpu->vendor[0])
		return 0;
	err = ps_buf_puts(out, "<cpu vendor=\"");
	if (!err)
		err = ps_buf_put_xml(out, cpu->vendor);
	if (!err)
		err = ps_buf_printf(out, "\" family=\"%u\" model=\"%u\""
				    " stepping=\"%u\"/>\n",
				    cpu->family, cpu->model, cpu->stepping);
	return err;
}

int btrace_xml_pt(struct ps_buf *out, const struct trace_cpu *cpu,
		  const void *raw, size_t len)
{
	int err;

	if (len && !raw)
		return -pse_invalid;
	if (len > (SIZE_MAX - 512) / 2)
		return -pse_nomem;
	/* One reservation for everything, so a large trace costs one copy
	   of its hex and no reallocation.  */
	err = ps_buf_reserve(out, 2 * len + 512);
	if (err < 0)
		return err;

	err = ps_buf_puts(out, btrace_head);
	if (!err)
		err = ps_buf_puts(out, "<pt>\n<pt-config>\n");
	if (!err)
		err = put_cpu(out, cpu);
	if (!err)
		err = ps_buf_puts(out, "</pt-config>\n");
	if (!err && len) {
		err = ps_buf_puts(out, "<raw>\n");
		if (!err)
			err = ps_buf_put_hex(out, raw, len);
		if (!err)
			err = ps_buf_puts(out, "</raw>\n");
	}
	if (!err)
		err = ps_buf_puts(out, "</pt>\n");
	if (!err)
		err = ps_buf_puts(out, btrace_tail);
	return err;
}

int btrace_xml_conf(struct ps_buf *out, enum trace_format format,
		    unsigned int size)
{
	int err;

	if (format != trace_format_none && format != trace_format_bts
	    && format != trace_format_pt)
		return -pse_invalid;
	err = ps_buf_puts(out, "<!DOCTYPE btrace-conf SYSTEM"
			  " \"btrace-conf.dtd\">\n"
			  "<btrace-conf version=\"1.0\">\n");
	if (err < 0)
		return err;

	/* gdbserver spells the two empty elements differently; keep it.  */
	switch (format) {
	case trace_format_none:
		break;
	case trace_format_bts:
		err = ps_buf_printf(out, "<bts size=\"0x%x\" />\n", size);
		break;
	case trace_format_pt:
		err = ps_buf_printf(out, "<pt size=\"0x%x\"/>\n", size);
		break;
	}
	if (!err)
		err = ps_buf_puts(out, "</btrace-conf>\n");
	return err;
}
