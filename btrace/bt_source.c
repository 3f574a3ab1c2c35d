/* Source text for the instruction history: the last file read is kept,
   and a file that cannot be opened is reported as GDB reports it (an
   error the first time in a row, "N\tin FILE" after).  */
#include "btrace/bt_source.h"
#include "common/ps_array.h"
#include "btrace/ptbtrace.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct bt_source {
	char *path;               /* the last file visited */
	int error;                /* errno opening it, or 0 */
	char *text;
	size_t size;
	size_t *lines;            /* offsets of line starts */
	size_t nlines;
	FILE *err;                /* where open errors go; NULL: stderr */
};

int bt_source_alloc(struct bt_source **source)
{
	if (!source)
		return -bte_invalid;
	*source = calloc(1, sizeof(**source));
	return *source ? 0 : -bte_nomem;
}

static void bt_source_clear(struct bt_source *s)
{
	free(s->path);
	free(s->text);
	free(s->lines);
	s->path = s->text = NULL;
	s->lines = NULL;
	s->size = s->nlines = 0;
	s->error = 0;
}

void bt_source_free(struct bt_source *source)
{
	if (!source)
		return;
	bt_source_clear(source);
	free(source);
}

static int bt_source_read(struct bt_source *s, const char *path)
{
	FILE *in = fopen(path, "rb");
	size_t cap = 0, n;
	char buf[65536];

	if (!in)
		return errno ? errno : ENOENT;
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0) {
		if (PS_ARRAY_RESERVE(s->text, cap, s->size + n + 1)) {
			fclose(in);
			return ENOMEM;
		}
		memcpy(s->text + s->size, buf, n);
		s->size += n;
	}
	fclose(in);
	if (!s->text && !(s->text = malloc(1)))
		return ENOMEM;
	s->text[s->size] = 0;

	s->lines = malloc((s->size + 1) * sizeof(*s->lines));
	if (!s->lines)
		return ENOMEM;
	s->lines[s->nlines++] = 0;
	for (size_t i = 0; i < s->size; ++i)
		if (s->text[i] == '\n' && i + 1 < s->size)
			s->lines[s->nlines++] = i + 1;
	return 0;
}

/* One line's text, control characters shown as GDB shows them.  */
static void bt_source_put_text(FILE *out, const char *p)
{
	for (; *p && *p != '\n'; ++p) {
		unsigned char c = (unsigned char) *p;

		if (c == '\r')
			break;
		if (c == 0177)
			fputs("^?", out);
		else if (c < 040 && c != '\t' && c != '\033')
			fprintf(out, "^%c", c + 0100);
		else
			fputc(c, out);
	}
}

void bt_source_set_err(struct bt_source *s, FILE *err)
{
	s->err = err;
}

void bt_source_print_line(struct bt_source *s, FILE *out, const char *file,
			  const char *path, int line)
{
	if (!s->path || strcmp(s->path, path) != 0) {
		bt_source_clear(s);
		s->path = strdup(path);
		s->error = bt_source_read(s, path);
		if (s->error) {
			/* GDB's print_sys_errmsg: to its error stream, after
			   what came before on the output.  */
			fflush(out);
			fprintf(s->err ? s->err : stderr, "%d\t%s: %s.\n", line,
				file, strerror(s->error));
			return;
		}
	}
	if (s->error) {
		fprintf(out, "%d\tin %s\n", line, file);
		return;
	}
	if (line < 1 || (size_t) line > s->nlines) {
		fprintf(out, "Line number %d out of range; %s has %zu lines.\n",
			line, file, s->nlines);
		return;
	}
	fprintf(out, "%s:%d\t", file, line);
	bt_source_put_text(out, s->text + s->lines[line - 1]);
	fputc('\n', out);
}
