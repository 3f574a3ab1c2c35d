# Sourced by the recorder's tests: the built tree's tools, a scratch
# directory removed on exit with any recorder still running ($rpid), and
# fail.  need_built FILE... fails unless each is an executable.
build=${top_builddir:-.}
stub=${PTSTUB:-$build/ptstub}
tool=$build/ptbtrace
tmp=$(mktemp -d)
rpid=
cleanup() {
	[ -n "$rpid" ] && kill "$rpid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

fail() {
	echo "FAIL: $*"
	exit 1
}

need_built() {
	for f in "$@"; do
		[ -x "$f" ] || fail "$f is not built"
	done
}
