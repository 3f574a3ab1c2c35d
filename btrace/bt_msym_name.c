/* How GDB prints a minimal symbol's name.  GDB guesses each ELF symbol's
   language from its name; a name that GNAT's decoding would change counts
   as Ada and prints decoded: "closelog.cold" as "closelog[cold]",
   "foo.part.0" as "foo.part", "a__b" as "a.b" (gdb/ada-lang.c,
   ada_decode).  This is a port of those rules for what C code can name;
   Ada operator names and U/W hex escapes are left out.  */
#include "btrace/bt_msym_name.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static void bt_remove_trailing_digits(const char *s, int *len)
{
	if (*len > 1 && isdigit((unsigned char) s[*len - 1])) {
		int i = *len - 2;

		while (i > 0 && isdigit((unsigned char) s[i]))
			i--;
		if (i >= 0 && s[i] == '.')
			*len = i;
		else if (i >= 0 && s[i] == '$')
			*len = i;
		else if (i >= 2 && strncmp(s + i - 2, "___", 3) == 0)
			*len = i - 2;
		else if (i >= 1 && strncmp(s + i - 1, "__", 2) == 0)
			*len = i - 1;
	}
}

static int bt_remove_compiler_suffix(const char *s, int *len)
{
	int offset = *len - 1;

	while (offset > 0 && isalpha((unsigned char) s[offset]))
		--offset;
	if (offset > 0 && s[offset] == '.') {
		*len = offset;
		return offset + 1;
	}
	return -1;
}

static int bt_is_lower_alnum(int c)
{
	return isdigit(c) || (isalpha(c) && islower(c));
}

/* GDB's ada_decode without wrapping: 0 and the decoded name in OUT, or
   -1 when GDB would leave NAME as it is.  */
static int bt_ada_decode(const char *s, char *out, size_t size)
{
	int i, len0, suffix, at = 0;
	const char *p;

	if (strncmp(s, "_ada_", 5) == 0)
		s += 5;
	if (strncmp(s, "___ghost_", 9) == 0)
		s += 9;
	if (s[0] == '_' || s[0] == '<' || !s[0])
		return -1;

	len0 = (int) strlen(s);
	suffix = bt_remove_compiler_suffix(s, &len0);
	bt_remove_trailing_digits(s, &len0);
	/* Protected object subprograms' trailing N.  */
	if (len0 > 1 && s[len0 - 1] == 'N' &&
	    (isdigit((unsigned char) s[len0 - 2]) ||
	     islower((unsigned char) s[len0 - 2])))
		len0 -= 1;

	p = strstr(s, "___");
	if (p && p - s < len0 - 3) {
		if (p[3] == 'X')
			len0 = (int) (p - s);
		else
			return -1;
	}
	if (len0 > 3 && strncmp(s + len0 - 3, "TKB", 3) == 0)
		len0 -= 3;
	if (len0 > 2 && strncmp(s + len0 - 2, "TB", 2) == 0)
		len0 -= 2;
	if (len0 > 1 && s[len0 - 1] == 'B')
		len0 -= 1;

	if (len0 > 1 && isdigit((unsigned char) s[len0 - 1])) {
		i = len0 - 2;
		while ((i >= 0 && isdigit((unsigned char) s[i])) ||
		       (i >= 1 && s[i] == '_' && isdigit((unsigned char) s[i - 1])))
			i -= 1;
		if (i > 1 && s[i] == '_' && s[i - 1] == '_')
			len0 = i - 1;
		else if (i >= 0 && s[i] == '$')
			len0 = i;
	}

#define BT_PUT(c) do { if ((size_t) at + 1 >= size) return -1; \
		       out[at++] = (char) (c); } while (0)

	for (i = 0; i < len0 && !isalpha((unsigned char) s[i]); i += 1)
		BT_PUT(s[i]);

	while (i < len0) {
		if (i < len0 - 4 && strncmp(s + i, "TK__", 4) == 0)
			i += 2;
		if (len0 - i > 5 && s[i] == '_' && s[i + 1] == '_' &&
		    s[i + 2] == 'B' && s[i + 3] == '_' &&
		    isdigit((unsigned char) s[i + 4])) {
			int k = i + 5;

			while (k < len0 && isdigit((unsigned char) s[k]))
				k++;
			if (len0 - k > 2 && s[k] == '_' && s[k + 1] == '_')
				i = k;
		}
		if (len0 - i > 3 && s[i] == '_' && s[i + 1] == 'E' &&
		    isdigit((unsigned char) s[i + 2])) {
			int k = i + 3;

			while (k < len0 && isdigit((unsigned char) s[k]))
				k++;
			if (k < len0 && (s[k] == 'b' || s[k] == 's')) {
				k++;
				if (k == len0 || (k < len0 && s[k] == '_'))
					i = k;
			}
		}
		if (s[i] == 'N' && s[i + 1] == '_' && s[i + 2] == '_') {
			const char *ptr = s + i - 1;

			while (ptr >= s && bt_is_lower_alnum((unsigned char) *ptr))
				ptr--;
			if (ptr < s || (ptr > s && ptr[0] == '_' && ptr[-1] == '_'))
				i++;
		}
		if (s[i] == 'X' && i != 0 && isalnum((unsigned char) s[i - 1])) {
			do
				i += 1;
			while (i < len0 && (s[i] == 'b' || s[i] == 'n'));
			if (i < len0)
				return -1;
		} else if (i < len0 - 2 && s[i] == '_' && s[i + 1] == '_') {
			BT_PUT('.');
			i += 2;
		} else {
			BT_PUT(s[i]);
			i += 1;
		}
	}
	out[at] = 0;

	for (i = 0; i < at; ++i)
		if (isupper((unsigned char) out[i]) || out[i] == ' ')
			return -1;
	if (suffix >= 0) {
		int n = snprintf(out + at, size - (size_t) at, "[%s]", s + suffix);

		if (n < 0 || (size_t) (at + n) >= size)
			return -1;
	}
#undef BT_PUT
	return 0;
}

const char *bt_msym_print_name(const char *linkage, char *buf, size_t size)
{
	if (!linkage || !buf || !size)
		return linkage;
	/* C++ (and D) names are demangled by their own rules; GDB tries
	   those first.  They start with an underscore, which Ada rejects.  */
	if (bt_ada_decode(linkage, buf, size) < 0 || strcmp(buf, linkage) == 0)
		return linkage;
	return buf;
}
