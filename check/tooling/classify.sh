#!/usr/bin/env bash
# check/classify.sh on made-up VM outputs: passes, listed failures (XFAIL),
# a listed failure that passes, an unlisted skip, a test that timed out
# and one that never ran are each classified as the README says.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

mkdir -p "$tmp/run/out"
cat >"$tmp/expected" <<'LIST'
i386/kselftest/mmap/perf_mmap.rb.map  fail  made up: listed, but passes
i386/kselftest/mmap/perf_mmap.rb.unmap  fail  made up: listed, and fails
LIST
cat >"$tmp/run/out/kselftest.tap" <<'TAP'
# selftests: perf_events: mmap
# ok 1 perf_mmap.rb.map
# not ok 2 perf_mmap.rb.unmap
# ok 3 perf_mmap.rb.remap
# ok 4 perf_mmap.aux.map # SKIP No AUX event found.
ok 1 selftests: perf_events: mmap
# selftests: perf_events: tail_tracking
# ok 1 global.mixed_sizes_exact_accounting
TAP
EXPECTED_RESULTS=$tmp/expected "$root/check/classify.sh" "$tmp/run" i386 >"$tmp/got"

want() { grep -qxF "$1" "$tmp/got" || fail "no line '$1' in: $(cat "$tmp/got")"; }
want "FAIL i386/kselftest/mmap/perf_mmap.rb.map (listed as expected fail, but passed: update the list)"
want "XFAIL i386/kselftest/mmap/perf_mmap.rb.unmap"
want "PASS i386/kselftest/mmap/perf_mmap.rb.remap"
want "FAIL i386/kselftest/mmap/perf_mmap.aux.map (got skip)"
want "PASS i386/kselftest/tail_tracking/global.mixed_sizes_exact_accounting"
# tail_tracking started but never finished; watermark_signal never started.
want "FAIL i386/kselftest/tail_tracking (no result within 600s)"
want "FAIL i386/kselftest/watermark_signal (no result within 600s)"

# A failed perf test's own FAIL lines reach why-failed, named; a passing
# test's do not.
mkdir -p "$tmp/perf/out"
n=0
while read -r want _ kind name; do
	n=$((n + 1))
	if [ "$want" != release ] || [ "$kind" != perf-test ]; then
		continue
	fi
	if [ -z "${failed:-}" ]; then
		failed=$name
		printf 'FAIL: made up: reason one\na FAILED! line is not shown\n%s\n' \
			"12: $name   : FAILED!" >"$tmp/perf/out/perf-test.$n.log"
	elif [ -z "${died:-}" ]; then
		# A shell test that died of set -e prints no FAIL line.
		died=$name
		printf '%s\n' "14: $name   : Running (1 active)" "--- start ---" \
			"made up: first words" "made up: kill: (362) - No such process" \
			"---- end(-1) ----" "14: $name   : FAILED!" \
			>"$tmp/perf/out/perf-test.$n.log"
	else
		printf 'FAIL: made up: not shown\n%s\n' "13: $name   : Ok" \
			>"$tmp/perf/out/perf-test.$n.log"
	fi
done <"$root/check/vm-tests.list"
[ -n "${died:-}" ] || fail "fewer than two perf tests on VM release in check/vm-tests.list"
EXPECTED_RESULTS=$tmp/expected "$root/check/classify.sh" "$tmp/perf" release >"$tmp/got" ||
	fail "classify.sh exited $? on a perf test with no FAIL line"
want "FAIL release/perf-test/${failed// /_} (got fail)"
want "FAIL release/perf-test/${died// /_} (got fail)"
why() {
	grep -qxF "    release/perf-test/$1" "$tmp/perf/why-failed" ||
		fail "no '$1' in why-failed: $(cat "$tmp/perf/why-failed")"
}
why "${failed// /_}: FAIL: made up: reason one"
why "${died// /_}: made up: first words"
why "${died// /_}: made up: kill: (362) - No such process"
[ "$(wc -l <"$tmp/perf/why-failed")" = 3 ] ||
	fail "why-failed has more than the failed tests' lines: $(cat "$tmp/perf/why-failed")"
echo "classify: pass, XFAIL, stale list entry, unlisted skip, timeout and not run all told apart; a failed perf test's FAIL lines, or its last words, reach the summary"
