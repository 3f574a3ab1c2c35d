/* Parsing helpers for packet handlers.  Packets come from the wire and
   are not trusted: every helper is bounded by END (packets may hold NUL
   bytes), and on malformed input returns -pse_invalid, -pse_badhex or
   -pse_range with neither *P advanced nor any output written.  */
#ifndef SERVER_RSP_PARSE_H
#define SERVER_RSP_PARSE_H

#include <stddef.h>
#include <stdint.h>

struct ps_buf;

/* A thread id as the protocol writes it.  In either field 0 means "any"
   and -1 means "all".  */
struct rsp_ptid {
	long pid;
	long tid;
};

/* Parse a thread id at *P: "pPID.TID", "pPID" (the same as "pPID.-1"),
   "p-1", "pPID.-1", or without the multiprocess extension "TID", "-1",
   "0".  Numbers are hex, at most 0x7fffffff.  A bare TID yields pid 0
   (the caller's one process), a bare "-1" yields {-1, -1}.  "p-1.TID"
   with TID > 0 is invalid, as the protocol says.  */
int rsp_parse_ptid(const char **p, const char *end, struct rsp_ptid *out);

/* Append PTID as "pPID.TID" when MULTIPROCESS, else as "TID"; -1 is
   written as "-1".  */
int rsp_format_ptid(struct ps_buf *buf, struct rsp_ptid ptid,
		    int multiprocess);

/* Parse "ADDR,LEN" (hex); -pse_range if the range wraps past 2^64.  */
int rsp_parse_addr_len(const char **p, const char *end, uint64_t *addr,
		       uint64_t *len);

/* Consume the character C at *P, or -pse_invalid.  */
int rsp_expect(const char **p, const char *end, char c);

/* 0 if *P is at END, else -pse_invalid: nothing may follow.  */
int rsp_expect_end(const char *p, const char *end);

/* The next field of a SEP-separated list at *P: sets FIELD and LEN to
   the text up to SEP or END and moves *P past the SEP.  Returns 1 for a
   field (possibly empty), 0 once *P is at END.  "a;;b" has three fields;
   "" has none; "a;" has one.  */
int rsp_next_field(const char **p, const char *end, char sep,
		   const char **field, size_t *len);

/* One item of a qSupported-style list "name+;name-;name?;name=value".  */
struct rsp_feature {
	const char *name;
	size_t name_len;
	char kind;            /* '+', '-', '?', '=', or 0 for a bare name */
	const char *value;    /* the text after '=' (kind '='), else NULL */
	size_t value_len;
};

/* Parse the next ';'-separated feature at *P into F, skipping empty
   items.  Returns 1 for a feature, 0 at END, -pse_invalid for an item
   with an empty name.  */
int rsp_next_feature(const char **p, const char *end, struct rsp_feature *f);

/* Whether F's name is NAME.  */
int rsp_feature_is(const struct rsp_feature *f, const char *name);

/* Decode hex pairs from *P up to END or the first non-hex character and
   append the bytes to OUT (qRcmd, vRun arguments, QEnvironmentHexEncoded,
   qSymbol names).  Returns the number of bytes decoded; -pse_badhex for
   an odd number of digits, -pse_nomem if OUT cannot grow.  */
long rsp_parse_hex_string(const char **p, const char *end,
			  struct ps_buf *out);

#endif
