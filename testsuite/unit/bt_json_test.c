/* bt_json: the list layout --json has always had, escaping as jansson
   does, entries refilled in place keeping their key order.  */
#define _GNU_SOURCE
#include <criterion/criterion.h>

#include "btrace/bt_json.h"

#include <stdlib.h>
#include <string.h>

struct mem {
	char *text;
	size_t len;
	FILE *out;
};

static void mem_open(struct mem *m)
{
	m->text = NULL;
	m->len = 0;
	m->out = open_memstream(&m->text, &m->len);
	cr_assert_not_null(m->out);
}

static char *mem_close(struct mem *m)
{
	fclose(m->out);
	return m->text;
}

Test(bt_json, empty_list)
{
	struct bt_json_list l;
	struct mem m;

	mem_open(&m);
	bt_json_list_init(&l, m.out, "");
	cr_assert_eq(bt_json_list_fini(&l, "\n"), 0);
	char *text = mem_close(&m);

	cr_assert_str_eq(text, "[]\n");
	free(text);
}

Test(bt_json, list_layout_and_escapes)
{
	struct bt_json_list l;
	struct mem m;

	mem_open(&m);
	bt_json_list_init(&l, m.out, "{\"x\": ");
	cr_assert_eq(bt_json_list_add(&l, json_pack("{s:i, s:s}", "b", 1,
						    "a", "q\"\\/\x01")), 0);
	cr_assert_eq(bt_json_list_add(&l, json_pack("{s:b, s:{s:n}}", "t", 1,
						    "o", "z")), 0);
	cr_assert_eq(bt_json_list_fini(&l, "}\n"), 0);
	char *text = mem_close(&m);

	cr_assert_str_eq(text, "{\"x\": [\n"
			 "  {\"b\": 1, \"a\": \"q\\\"\\\\/\\u0001\"},\n"
			 "  {\"t\": true, \"o\": {\"z\": null}}\n"
			 "]}\n");
	free(text);
}

Test(bt_json, a_failed_entry_fails_the_list)
{
	struct bt_json_list l;
	struct mem m;

	mem_open(&m);
	bt_json_list_init(&l, m.out, "");
	cr_assert_eq(bt_json_list_add(&l, NULL), -1);
	cr_assert_eq(bt_json_list_fini(&l, "\n"), -1);
	free(mem_close(&m));
}

Test(bt_json, refilled_entries_keep_their_key_order)
{
	json_t *o = json_pack("{s:i, s:s}", "index", 0, "name", "");
	struct bt_json_list l;
	struct mem m;

	mem_open(&m);
	bt_json_list_init(&l, m.out, "");
	cr_assert_eq(bt_json_set_text(o, "name", "f"), 0);
	cr_assert_eq(bt_json_set_int(o, "index", 7), 0);
	cr_assert_eq(bt_json_set_int(o, "line", 3), 0);
	cr_assert_eq(bt_json_list_put(&l, o), 0);
	json_object_del(o, "line");
	cr_assert_eq(bt_json_set_int(o, "index", 8), 0);
	cr_assert_eq(bt_json_list_put(&l, o), 0);
	cr_assert_eq(bt_json_list_fini(&l, "\n"), 0);
	json_decref(o);
	char *text = mem_close(&m);

	cr_assert_str_eq(text, "[\n"
			 "  {\"index\": 7, \"name\": \"f\", \"line\": 3},\n"
			 "  {\"index\": 8, \"name\": \"f\"}\n"
			 "]\n");
	free(text);
}

Test(bt_json, text_that_is_not_utf8_is_latin1)
{
	json_t *s = bt_json_text("caf\xe9");

	cr_assert_not_null(s);
	cr_assert_str_eq(json_string_value(s), "caf\xc3\xa9");
	json_decref(s);
	s = bt_json_text("caf\xc3\xa9");
	cr_assert_str_eq(json_string_value(s), "caf\xc3\xa9");
	json_decref(s);
}

Test(bt_json, print_adds_the_tail)
{
	struct mem m;

	mem_open(&m);
	cr_assert_eq(bt_json_print(m.out, json_pack("{s:s}", "k", "v"), "\n"),
		     0);
	char *text = mem_close(&m);

	cr_assert_str_eq(text, "{\"k\": \"v\"}\n");
	free(text);
}
