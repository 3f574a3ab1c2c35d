/* The instruction text of GDB's disassembly, from libopcodes' x86-64
   printer; operand addresses get GDB's " <sym+off>" (print_address).  */
#include "config.h"
#include "btrace/bt_disasm.h"

#include <dis-asm.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct bt_disasm {
	const struct bt_image *image;
	struct disassemble_info info;
	disassembler_ftype print;
	char *text;               /* the caller's buffer while printing */
	size_t size, len;
};

static void bt_disasm_vappend(struct bt_disasm *d, const char *fmt,
			      va_list ap)
{
	int n;

	if (d->len + 1 >= d->size)
		return;
	n = vsnprintf(d->text + d->len, d->size - d->len, fmt, ap);
	if (n < 0)
		return;
	d->len += (size_t) n;
	if (d->len >= d->size)
		d->len = d->size - 1;
}

static int bt_disasm_printf(void *stream, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bt_disasm_vappend(stream, fmt, ap);
	va_end(ap);
	return 0;
}

static int bt_disasm_styled_printf(void *stream,
				   enum disassembler_style style,
				   const char *fmt, ...)
{
	va_list ap;

	(void) style;
	va_start(ap, fmt);
	bt_disasm_vappend(stream, fmt, ap);
	va_end(ap);
	return 0;
}

static int bt_disasm_read(bfd_vma addr, bfd_byte *buf, unsigned int length,
			  struct disassemble_info *info)
{
	struct bt_disasm *d = info->application_data;
	unsigned int done = 0;

	while (done < length) {
		int n = bt_image_read(d->image, addr + done, buf + done,
				      length - done);

		if (n <= 0) {
			info->memory_error_func(-1, addr + done, info);
			return -1;
		}
		done += (unsigned int) n;
	}
	return 0;
}

static void bt_disasm_memory_error(int status, bfd_vma addr,
				   struct disassemble_info *info)
{
	(void) status;
	(void) addr;
	(void) info;
}

/* GDB's print_address: the number, then " <sym+off>" if a symbol.  */
static void bt_disasm_address(bfd_vma addr, struct disassemble_info *info)
{
	struct bt_disasm *d = info->application_data;
	const char *name;
	int64_t offset;

	bt_disasm_printf(d, "0x%" PRIx64, (uint64_t) addr);
	if (bt_image_symbolic(d->image, addr, 0, &name, &offset) < 0 || !name)
		return;
	if (offset)
		bt_disasm_printf(d, " <%s%+" PRId64 ">", name, offset);
	else
		bt_disasm_printf(d, " <%s>", name);
}

int bt_disasm_alloc(struct bt_disasm **pd, const struct bt_image *image)
{
	struct bt_disasm *d;

	if (!pd || !image)
		return -bte_invalid;
	d = calloc(1, sizeof(*d));
	if (!d)
		return -bte_nomem;
	d->image = image;
	init_disassemble_info(&d->info, d, bt_disasm_printf,
			      bt_disasm_styled_printf);
	d->info.arch = bfd_arch_i386;
	d->info.mach = bfd_mach_x86_64;
	d->info.endian = BFD_ENDIAN_LITTLE;
	d->info.application_data = d;
	d->info.read_memory_func = bt_disasm_read;
	d->info.memory_error_func = bt_disasm_memory_error;
	d->info.print_address_func = bt_disasm_address;
	disassemble_init_for_target(&d->info);
	d->print = disassembler(bfd_arch_i386, false, bfd_mach_x86_64, NULL);
	if (!d->print) {
		free(d);
		return -bte_unsupported;
	}
	*pd = d;
	return 0;
}

void bt_disasm_free(struct bt_disasm *d)
{
	if (!d)
		return;
	disassemble_free_target(&d->info);
	free(d);
}

int bt_disasm_insn(struct bt_disasm *d, uint64_t pc, char *text, size_t size)
{
	int len;

	if (!d || !text || !size)
		return -bte_invalid;
	d->text = text;
	d->size = size;
	d->len = 0;
	text[0] = 0;
	len = d->print(pc, &d->info);
	d->text = NULL;
	return len > 0 ? len : -bte_decode;
}

int bt_disasm_bytes_per_line(const struct bt_disasm *d)
{
	return d ? d->info.bytes_per_line : 0;
}
