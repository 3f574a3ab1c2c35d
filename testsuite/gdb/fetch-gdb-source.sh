#!/bin/sh
# Fetch Debian's gdb source package, the one matching the installed gdb,
# into a cache folder, for GDB's own testsuite (gdb.btrace, gdb.server).
#
# usage: fetch-gdb-source.sh CACHEDIR
#
# Leaves CACHEDIR/gdb-VERSION/ (VERSION as `gdb --version` says, e.g. 13.1)
# and prints that path on the last line of stdout.  Does nothing but print
# it when it is already there.  Needs root to add a deb-src entry and run
# apt-get update; without root it exits 77 (skip).
#
# The deb-src entry mirrors the machine's own Debian `deb` entries (same
# URIs, suites, components and keyring), so the source comes from the
# archive the installed gdb came from.
set -e

cache=${1:?usage: $0 CACHEDIR}
gdb=${GDB:-gdb}

say() { echo "fetch-gdb-source: $*" >&2; }

# The upstream version of the installed gdb: "GNU gdb (Debian 13.1-3) 13.1".
upstream=$("$gdb" --version | sed -n '1s/.* \([0-9][0-9.]*\)$/\1/p')
if [ -z "$upstream" ]; then
	say "cannot tell the version of $gdb"
	exit 1
fi
srcdir=$cache/gdb-$upstream

check_tree() {
	[ -f "$1/gdb/testsuite/configure" ] && [ -f "$1/gdb/version.in" ] &&
	[ "$(cat "$1/gdb/version.in")" = "$upstream" ]
}

if check_tree "$srcdir"; then
	echo "$srcdir"
	exit 0
fi

if [ "$(id -u)" != 0 ]; then
	say "SKIP: $srcdir is absent and fetching it needs root" \
	    "(apt-get update, a deb-src entry); run this as root once, or" \
	    "point GDBTS_SRCDIR at an unpacked gdb-$upstream source"
	exit 77
fi
for tool in apt-get dpkg-source; do
	if ! command -v $tool >/dev/null 2>&1; then
		say "SKIP: $tool is missing (apt-get install dpkg-dev)"
		exit 77
	fi
done

# The Debian package version of the installed gdb, e.g. 13.1-3.
pkgver=$(dpkg-query -W -f='${Version}' gdb 2>/dev/null || true)
if [ -z "$pkgver" ]; then
	say "gdb is not installed from a Debian package"
	exit 1
fi

# Does apt already know a deb-src entry?  (deb822 or one-line format.)
has_debsrc() {
	grep -qs '^[[:space:]]*Types:.*deb-src' /etc/apt/sources.list.d/*.sources ||
	grep -qs '^[[:space:]]*deb-src[[:space:]]' /etc/apt/sources.list \
	    /etc/apt/sources.list.d/*.list
}

entry=/etc/apt/sources.list.d/ptstub-gdb-src.sources
if ! has_debsrc; then
	say "adding $entry (deb-src mirroring the Debian deb entries)"
	tmp=$(mktemp)
	# deb822 stanzas: copy every stanza that is Types: deb for a Debian
	# archive, as Types: deb-src.
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk '
		function flush() {
			if (stanza != "" && isdeb && debian)
				printf "%s\n", stanza
			stanza = ""; isdeb = 0; debian = 0
		}
		/^[[:space:]]*$/ { flush(); next }
		/^[[:space:]]*#/ { next }
		/^Types:/ {
			if ($0 ~ /(^|[ \t])deb([ \t]|$)/) isdeb = 1
			stanza = stanza "Types: deb-src\n"; next
		}
		/^URIs:/ { if ($0 ~ /debian/) debian = 1 }
		{ stanza = stanza $0 "\n" }
		END { flush() }' "$f" >>"$tmp"
	done
	# One-line entries: "deb [opts] URI suite comps" -> one stanza each.
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		awk '
		$1 == "deb" {
			i = 2; opts = ""
			if ($2 ~ /^\[/) {
				while (i <= NF && $i !~ /\]$/) { opts = opts " " $i; i++ }
				opts = opts " " $i; i++
			}
			if ($i !~ /debian/) next
			printf "Types: deb-src\nURIs: %s\nSuites: %s\nComponents:", $i, $(i+1)
			for (j = i + 2; j <= NF; j++) printf " %s", $j
			printf "\n"
			if (match(opts, /signed-by=[^] ]*/))
				printf "Signed-By: %s\n", substr(opts, RSTART + 10, RLENGTH - 10)
			printf "\n"
		}' "$f" >>"$tmp"
	done
	if [ ! -s "$tmp" ]; then
		rm -f "$tmp"
		say "no Debian deb entry found in /etc/apt to mirror"
		exit 1
	fi
	install -m 644 "$tmp" "$entry"
	rm -f "$tmp"
fi

say "apt-get update"
apt-get update -qq >&2

mkdir -p "$cache"
say "apt-get source gdb=$pkgver into $cache"
# Only the testsuite is needed, but the source package is one unit.
(cd "$cache" && apt-get source -qq "gdb=$pkgver" >&2)

if ! check_tree "$srcdir"; then
	say "$srcdir is not a gdb $upstream source tree after apt-get source"
	exit 1
fi
echo "$srcdir"
