#!/usr/bin/env bash
# The bisect's choice of states (bisect_builds in check/bisect.sh, its
# builds stubbed, its clock set): with time, every state is built; with
# what the memory holds, nothing is rebuilt and nothing refused; with
# time for the must states only, the states between them are skipped and
# named, and what they changed (perf, a shell test, the selftests, debug
# folders) is built by the next must state, named for them too, or left to
# the tip's builds; a must state refused names what it had taken on.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# shellcheck source=check/lib.sh
BUILD_DIR=$tmp/build . "$root/check/lib.sh"
# shellcheck source=check/bisect.sh
. "$root/check/bisect.sh"
RESULTS=$tmp/results

g() { git -C "$SRC" -c user.name=t -c user.email=t@t "$@"; }
# commit PATH SUBJECT: a commit that changes PATH.
commit() {
	mkdir -p "$SRC/$(dirname "$1")"
	echo "$2" >>"$SRC/$1"
	case "$1" in *.sh) chmod +x "$SRC/$1" ;; esac
	g add -A
	g commit -q -m "$2"
}
mkdir -p "$SRC"
git -C "$SRC" init -q -b "$BRANCH"
commit arch/x86/events/intel/ds.c base
g tag "$BASE_TAG"
# Posting 01-a: perf, a shell test, then its end (documentation).
commit tools/perf/util/a.c "a perf change"
commit tools/perf/tests/shell/t.sh "a shell test"
commit Documentation/a.rst "the end of 01-a"
g branch posting/01-a
# Posting 02-b: a header (the debug folders then build ds.o too), a
# selftest, the state of its release kernel, a later selftest, the tip.
commit include/linux/perf_event.h "a header change"
commit tools/testing/selftests/perf_events/a.c "a selftest"
commit kernel/events/core.c "the release kernel of 02-b"
commit tools/testing/selftests/perf_events/b.c "a later selftest"
commit Documentation/b.rst "the tip"
g branch posting/02-b

# Stubs: the base, the series' objects outside kernel/events/, the builds
# (each logged with the subject of what is checked out), the clock (the
# seconds left: $tmp/clock, one value a call, the last one repeated).
check() { record PASS "$1"; }
series_kernel_objects() { echo arch/x86/events/intel/ds.o; }
state_build() { echo "$1 [$(kgit log -1 --format=%s HEAD)]" >>"$tmp/built"; }
remaining() {
	local left
	left=$(head -n 1 "$tmp/clock")
	[ "$(wc -l <"$tmp/clock")" -le 1 ] || sed -i 1d "$tmp/clock"
	echo "$left"
}
# run CLOCK...: bisect_builds with a reserve of 100 s; the must states
# take 90 s (the release kernel) and 30 s (the end of 01-a, and each state
# for itself).
run() {
	: >"$RESULTS"
	: >"$tmp/built"
	printf '%s\n' "$@" >"$tmp/clock"
	bisect_builds 100 100 >"$tmp/out" 2>&1 || fail "bisect_builds: $(cat "$tmp/out")"
	[ "$(kgit branch --show-current)" = "$BRANCH" ] || fail "left $SRC off $BRANCH"
}
want() { grep -qxF -- "$1" "$2" || fail "no line '$1' in $2: $(cat "$2")"; }
lines() { grep -c "$1" "$2" || true; }

# Time for all: each state builds what it changed.
BISECT_CACHE=$tmp/memory
run 1000
[ "$(lines '^SKIP\|^FAIL' "$RESULTS")" = 0 ] || fail "with time, not all built: $(cat "$RESULTS")"
want "perf [a perf change]" "$tmp/built"
want "perf-scripts $(kgit rev-parse "$BRANCH~6") [a shell test]" "$tmp/built"
want "debug arch/x86/events/intel/ds.o kernel/events/ [a header change]" "$tmp/built"
want "kernel [the release kernel of 02-b]" "$tmp/built"
[ "$(wc -l <"$tmp/built")" = 7 ] || fail "with time, 7 builds expected: $(cat "$tmp/built")"

# The same memory and no time: what it holds costs nothing; only the
# base, which it does not hold, is refused.
run 50
[ ! -s "$tmp/built" ] || fail "rebuilt what the memory holds: $(cat "$tmp/built")"
[ "$(lines '^PASS .*(same inputs as a build that passed)$' "$RESULTS")" = 7 ] ||
	fail "not all 7 builds from the memory: $(cat "$RESULTS")"
want "FAIL bisect 00/08 kernel-base (not built: no time left for the stages after it)" "$RESULTS"
[ "$(lines '^FAIL' "$RESULTS")" = 1 ] || fail "refused other than the base: $(cat "$RESULTS")"

# An empty memory and time for the must states only.
BISECT_CACHE=$tmp/memory2
run 120
for s in "a perf change" "a shell test" "a header change" "a selftest" \
	"a later selftest"; do
	grep -q "^SKIP bisect [0-9/]* \[[0-9a-z-]*\] $s (not built: " "$RESULTS" ||
		fail "'$s' not skipped: $(cat "$RESULTS")"
done
grep -q "^SKIP .* a perf change (.*; bisect 03/08 \[01-a\] builds what it changed)" "$RESULTS" ||
	fail "a skipped state does not name its posting's end: $(cat "$RESULTS")"
grep -q "^SKIP .* a selftest (.*; bisect 06/08 \[02-b\] builds what it changed)" "$RESULTS" ||
	fail "a skipped state does not name the next must state: $(cat "$RESULTS")"
grep -q "^SKIP .* a later selftest (.*; the tip's builds (the builds and tip stages) build what it changed)" "$RESULTS" ||
	fail "the tip's posting does not name the tip's builds: $(cat "$RESULTS")"
# The end of 01-a builds perf for the perf change (perf's build also runs
# the test through shellcheck); the release kernel's state builds the kernel,
# the debug folders of the header change and the selftests, each named
# for the states it builds for.
want "perf [the end of 01-a]" "$tmp/built"
want "kernel [the release kernel of 02-b]" "$tmp/built"
want "debug arch/x86/events/intel/ds.o kernel/events/ [the release kernel of 02-b]" "$tmp/built"
want "selftests [the release kernel of 02-b]" "$tmp/built"
[ "$(wc -l <"$tmp/built")" = 4 ] || fail "built more than that: $(cat "$tmp/built")"
want "PASS bisect 03/08 [01-a] perf (and what states 01, 02 changed): the end of 01-a" "$RESULTS"
want "PASS bisect 06/08 [02-b] selftests (and what states 04, 05 changed): the release kernel of 02-b" "$RESULTS"
[ "$(lines '^FAIL' "$RESULTS")" = 0 ] || fail "a failure: $(cat "$RESULTS")"

# Time runs out at the end of 01-a: it is refused, naming the states
# whose builds it had taken on.
BISECT_CACHE=$tmp/memory3
run 120 120 120 50
want "FAIL bisect 03/08 [01-a] the end of 01-a (and what states 01, 02 changed) (not built: no time left for the stages after it)" "$RESULTS"

# A shell test skipped alone is shellchecked from its own commit on.
BISECT_CACHE=$tmp/memory4
g checkout -q -b other "$BASE_TAG"
g branch -D -q posting/01-a posting/02-b "$BRANCH"
commit tools/perf/tests/shell/u.sh "another shell test"
commit tools/perf/tests/shell/v.sh "a second one"
commit Documentation/c.rst "the end"
g branch posting/01-a
commit Documentation/d.rst "the tip"
g branch posting/02-b
g checkout -q -b "$BRANCH"
run 120
want "perf-scripts $(kgit rev-parse HEAD~3) [the end]" "$tmp/built"
echo "bisect-skip: all built with time; nothing rebuilt or refused but the base from the memory; with time for the must states only, the others skipped and named, their builds made by the next must state and named for them, or left to the tip's; a refusal names what it took on"
