/* JSON output through jansson, entry by entry (see bt_json.h).  */
#include "btrace/bt_json.h"

#include <stdlib.h>
#include <string.h>

/* jansson's one-line form: ", " and ": " between items, no indent.  */
#define BT_JSON_FLAGS (JSON_PRESERVE_ORDER | JSON_ENCODE_ANY)

json_t *bt_json_text(const char *text)
{
	json_t *value = json_string(text);
	size_t len = 0;
	char *copy, *at;

	if (value || !text)
		return value;
	/* Not UTF-8: every byte above 0x7f becomes two.  */
	copy = malloc(2 * strlen(text) + 1);
	if (!copy)
		return NULL;
	for (at = copy; *text; ++text) {
		unsigned char c = (unsigned char) *text;

		if (c < 0x80) {
			*at++ = (char) c;
			continue;
		}
		*at++ = (char) (0xc0 | c >> 6);
		*at++ = (char) (0x80 | (c & 0x3f));
	}
	len = (size_t) (at - copy);
	value = json_stringn(copy, len);
	free(copy);
	return value;
}

int bt_json_set_int(json_t *o, const char *key, json_int_t value)
{
	json_t *old = json_object_get(o, key);

	if (json_is_integer(old))
		return json_integer_set(old, value);
	return json_object_set_new(o, key, json_integer(value));
}

int bt_json_set_text(json_t *o, const char *key, const char *text)
{
	json_t *old = json_object_get(o, key);

	/* json_string_set refuses what is not UTF-8.  */
	if (json_is_string(old) && json_string_set(old, text) == 0)
		return 0;
	return json_object_set_new(o, key, bt_json_text(text));
}

static void bt_json_flush(struct bt_json_list *l)
{
	fwrite(l->text, 1, l->n, l->out);
	l->n = 0;
}

static int bt_json_put(const char *s, size_t len, void *data)
{
	struct bt_json_list *l = data;

	if (l->n + len > sizeof(l->text)) {
		bt_json_flush(l);
		if (len > sizeof(l->text)) {
			fwrite(s, 1, len, l->out);
			return 0;
		}
	}
	memcpy(l->text + l->n, s, len);
	l->n += len;
	return 0;
}

static int bt_json_dump(struct bt_json_list *l, const json_t *value)
{
	int status = value ? json_dump_callback(value, bt_json_put, l,
						BT_JSON_FLAGS | l->flags) : -1;

	if (status < 0)
		l->failed = 1;
	return status < 0 ? -1 : 0;
}

void bt_json_list_init(struct bt_json_list *l, FILE *out, const char *head)
{
	l->out = out;
	l->first = 1;
	l->failed = 0;
	l->flags = 0;
	l->n = 0;
	bt_json_put(head, strlen(head), l);
	bt_json_put("[", 1, l);
}

int bt_json_list_put(struct bt_json_list *l, const json_t *entry)
{
	if (l->first)
		bt_json_put("\n  ", 3, l);
	else
		bt_json_put(",\n  ", 4, l);
	l->first = 0;
	return bt_json_dump(l, entry);
}

int bt_json_list_add(struct bt_json_list *l, json_t *entry)
{
	int status = bt_json_list_put(l, entry);

	json_decref(entry);
	return status;
}

int bt_json_list_fini(struct bt_json_list *l, const char *tail)
{
	if (!l->first)
		bt_json_put("\n", 1, l);
	bt_json_put("]", 1, l);
	bt_json_put(tail, strlen(tail), l);
	bt_json_flush(l);
	return l->failed ? -1 : 0;
}

int bt_json_print(FILE *out, json_t *value, const char *tail)
{
	int status = value ? json_dumpf(value, out, BT_JSON_FLAGS) : -1;

	json_decref(value);
	fputs(tail, out);
	return status < 0 ? -1 : 0;
}
