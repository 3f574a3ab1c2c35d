#!/bin/sh
# ptbtrace's progress line: on a terminal's stderr, for a decode that
# takes longer than the threshold (PTBTRACE_PROGRESS_MS, a second by
# default), cleared when the decode is done; never when stderr is not a
# terminal, and never for a decode faster than the threshold.
set -u
build=${top_builddir:-.}
tool=$build/ptbtrace
mk=$build/testsuite/btrace/bt_mkcorpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for f in "$tool" "$mk"; do
	[ -x "$f" ] || { echo "FAIL: $f is not built"; exit 1; }
done
command -v script >/dev/null 2>&1 ||
	{ echo "SKIP: no script(1) to give ptbtrace a terminal"; exit 77; }
"$mk" loop=20000 "$tmp/loop.ptb"
rc=$?
[ $rc = 77 ] && { echo "SKIP: the corpus program is not built"; exit 77; }
[ $rc = 0 ] || { echo "FAIL: bt_mkcorpus loop=20000: exit $rc"; exit 1; }

# On a terminal with no threshold: the line, then cleared, then info.
PTBTRACE_PROGRESS_MS=0 script -qec "$tool info $tmp/loop.ptb" /dev/null \
	>"$tmp/tty" 2>&1 || { echo "FAIL: ptbtrace info on a terminal"; exit 1; }
grep -aq 'ptbtrace: decoding ' "$tmp/tty" ||
	{ echo "FAIL: no progress line on a terminal"; cat -v "$tmp/tty"; exit 1; }
grep -aq "$(printf '\r\033\\[K')Active record target" "$tmp/tty" ||
	{ echo "FAIL: the progress line is not cleared"; cat -v "$tmp/tty"; exit 1; }

# Not a terminal: nothing on stderr.
PTBTRACE_PROGRESS_MS=0 "$tool" info "$tmp/loop.ptb" >"$tmp/out" 2>"$tmp/err" ||
	{ echo "FAIL: ptbtrace info"; exit 1; }
[ -s "$tmp/err" ] && { echo "FAIL: stderr without a terminal:"; cat -v "$tmp/err"; exit 1; }

# A terminal, but a decode faster than an hour: no line.
PTBTRACE_PROGRESS_MS=3600000 script -qec "$tool info $tmp/loop.ptb" /dev/null \
	>"$tmp/fast" 2>&1 || { echo "FAIL: ptbtrace info"; exit 1; }
grep -aq 'ptbtrace: decoding' "$tmp/fast" &&
	{ echo "FAIL: a progress line for a fast decode"; exit 1; }
echo "PASS: progress line on a terminal only, cleared when done"
exit 0
