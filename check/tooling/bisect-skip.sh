#!/usr/bin/env bash
# The bisect on a slow machine (bisect_builds in check/bisect.sh, its
# builds stubbed): with time for the must states only, the states between
# them are skipped and named, and what they changed (perf, a shell test,
# the selftests, debug folders) is built by the next state that is built;
# in the tip's posting the skipped states name the tip stage.
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
BISECT_CACHE=$tmp/memory
: >"$RESULTS"

g() { git -C "$SRC" -c user.name=t -c user.email=t@t "$@"; }
mkdir -p "$SRC"
git -C "$SRC" init -q -b "$BRANCH"
g commit -q --allow-empty -m base
g tag "$BASE_TAG"
# commit PATH SUBJECT: a commit that changes PATH.
commit() {
	mkdir -p "$SRC/$(dirname "$1")"
	echo "$2" >>"$SRC/$1"
	case "$1" in *.sh) chmod +x "$SRC/$1" ;; esac
	g add -A
	g commit -q -m "$2"
}
# Posting 01-a: perf, a shell test, then its end (documentation).
commit tools/perf/util/a.c "a perf change"
commit tools/perf/tests/shell/t.sh "a shell test"
commit Documentation/a.rst "the end of 01-a"
g branch posting/01-a
# Posting 02-b: its release kernel's state, kernel code and selftests in
# between, and the tip.
commit kernel/events/ring_buffer.c "a kernel change"
commit tools/testing/selftests/perf_events/a.c "a selftest"
commit kernel/events/core.c "the release kernel of 02-b"
commit tools/testing/selftests/perf_events/b.c "a later selftest"
commit Documentation/b.rst "the tip"
g branch posting/02-b

# Stubs: the base, the builds (each logged with its state's subject), a
# clock that stands still with 120 s left.
check() { record PASS "$1"; }
state_build() { echo "$1 [$(kgit log -1 --format=%s "$2")]" >>"$tmp/built"; }
remaining() { echo 120; }
series_kernel_objects() { :; }

# Reserve 100 s: the must states (90 s for the release kernel, 30 s for
# the end of 01-a) leave no room for the others.
bisect_builds 100 100 >"$tmp/out" 2>&1 || fail "bisect_builds: $(cat "$tmp/out")"

want() { grep -qxF -- "$1" "$2" || fail "no line '$1' in $2: $(cat "$2")"; }
for s in "a perf change" "a shell test" "a kernel change" "a selftest" \
	"a later selftest"; do
	grep -q "^SKIP bisect [0-9/]* \[[0-9a-z-]*\] $s (not built: " "$RESULTS" ||
		fail "'$s' not skipped: $(cat "$RESULTS")"
done
grep -q "^SKIP .* a later selftest (.*the next state built, the tip stage, builds" "$RESULTS" ||
	fail "the tip's posting does not name the tip stage: $(cat "$RESULTS")"
grep -q "^SKIP .* a perf change (.*at the latest bisect 03/08 \[01-a\], its posting's last" "$RESULTS" ||
	fail "a skipped state does not name its posting's end: $(cat "$RESULTS")"
# The end of 01-a builds perf for the perf change (and perf's build
# runs shellcheck on the test); the release kernel's state builds the kernel,
# the debug folder of both kernel changes and the selftests.
want "perf [the end of 01-a]" "$tmp/built"
want "kernel [the release kernel of 02-b]" "$tmp/built"
want "debug kernel/events/ [the release kernel of 02-b]" "$tmp/built"
want "selftests [the release kernel of 02-b]" "$tmp/built"
[ "$(wc -l <"$tmp/built")" = 4 ] || fail "built more than that: $(cat "$tmp/built")"
! grep -q '^FAIL' "$RESULTS" || fail "a failure: $(cat "$RESULTS")"
[ "$(kgit branch --show-current)" = "$BRANCH" ] || fail "left $SRC off $BRANCH"

# A shell test skipped alone is shellchecked from its own commit on.
: >"$tmp/built"
: >"$RESULTS"
g checkout -q -b other "$BASE_TAG"
g branch -D -q posting/01-a posting/02-b "$BRANCH"
commit tools/perf/tests/shell/u.sh "another shell test"
commit tools/perf/tests/shell/v.sh "a second one"
commit Documentation/c.rst "the end"
g branch posting/01-a
commit Documentation/d.rst "the tip"
g branch posting/02-b
g checkout -q -b "$BRANCH"
first=$(kgit rev-parse HEAD~3)
bisect_builds 100 100 >"$tmp/out" 2>&1 || fail "bisect_builds: $(cat "$tmp/out")"
want "perf-scripts $first [the end]" "$tmp/built"
echo "bisect-skip: with time for the must states only, the states between them skipped and named; what they changed built by the next state built, or left to the tip stage"
