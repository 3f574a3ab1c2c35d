/* JSON output through jansson, one small value at a time: the histories
   write a list of millions of entries, so each entry is built, dumped in
   jansson's one-line form ({"a": 1, "b": "x"}, keys in insertion order)
   and freed before the next, never one tree for the whole list.  */
#ifndef BT_JSON_H
#define BT_JSON_H

#include <jansson.h>
#include <stdio.h>

/* TEXT as a JSON string.  TEXT that is not UTF-8 (jansson takes no
   other) has each byte above 0x7f taken as Latin-1.  NULL if out of
   memory.  */
json_t *bt_json_text(const char *text);

/* Sets KEY of the object O to the integer VALUE or to TEXT (as
   bt_json_text), changing the value KEY has in place: an entry object
   kept for the whole list and refilled costs no allocation per entry
   beyond its strings'.  KEY keeps its place among O's keys; a new one
   comes last.  0, or -1 if out of memory.  */
int bt_json_set_int(json_t *o, const char *key, json_int_t value);
int bt_json_set_text(json_t *o, const char *key, const char *text);

/* A list written entry by entry to OUT, "[", "\n  ENTRY" separated by
   ",", "\n]": the layout ptbtrace's --json output has always had.
   Output is gathered for one fwrite per 16 KiB, as stdio's cost per
   call showed in million-line histories.  */
struct bt_json_list {
	FILE *out;
	int first;
	int failed;
	size_t flags;             /* more dump flags (JSON_REAL_PRECISION),
				     0 from bt_json_list_init */
	size_t n;
	char text[16384];
};

/* Starts the list on OUT after HEAD (the text before "[", "" for a bare
   list).  */
void bt_json_list_init(struct bt_json_list *l, FILE *out, const char *head);

/* Writes ENTRY (its reference taken, even on failure; NULL counts as
   out of memory) as the next entry.  0, or -1 if it could not be
   built or dumped.  */
int bt_json_list_add(struct bt_json_list *l, json_t *entry);

/* Writes ENTRY as the next entry, keeping it for the caller to refill.
   0, or -1 as bt_json_list_add.  */
int bt_json_list_put(struct bt_json_list *l, const json_t *entry);

/* Ends the list with "]" and TAIL ("\n" for a bare list) and flushes
   it.  0, or -1 if an entry failed.  */
int bt_json_list_fini(struct bt_json_list *l, const char *tail);

/* Writes VALUE (its reference taken) to OUT in the one-line form, then
   TAIL.  0, or -1 as bt_json_list_add.  */
int bt_json_print(FILE *out, json_t *value, const char *tail);

#endif
