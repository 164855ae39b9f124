#!/usr/bin/env bash
# The test command always ends with its summary and names what did not
# run: a command failing outside a check (set -e) and a SIGTERM in the
# middle of a stage each end the run with the "N passed, N failed" line,
# a failure naming the stage and the stages after it, and nothing the
# run started left running; the same for the demo's builds on SIGTERM.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# run_fake HOW: check/run.sh's traps around three stages, the third ending
# HOW: "abort" (a failing command) or "sleep" (waits to be interrupted).
run_fake() {
	BUILD_DIR=$tmp/build exec bash -c '
		set -euo pipefail
		. "$1/check/run.sh"
		mkdir -p "$CHECK_DIR"
		: >"$RESULTS"
		: >"$STAGES"
		trap on_signal INT TERM
		trap on_exit EXIT
		stage static
		record PASS "static check"
		stage builds
		check "a build" sleep 120 &
		if [ "$2" = abort ]; then false; fi
		wait' run-abort "$root" "$1"
}

rc=0
out=$(run_fake abort 2>&1) || rc=$?
[ "$rc" != 0 ] || fail "the aborted run exited 0"
grep -qx "FAIL aborted in stage builds (not run: bisect tip tooling vm)" \
	"$tmp/build/check/results" || fail "results: $(cat "$tmp/build/check/results")"
[[ $(tail -n 1 <<<"$out") == "1 passed, 1 failed"* ]] || fail "aborted run ended: $(tail -n 3 <<<"$out")"
! pgrep -f '^sleep 120$' >/dev/null || fail "the aborted run left its build running"
grep -qx "1..2" "$tmp/build/check/results.ktap" &&
	grep -qx "ok 1 static check" "$tmp/build/check/results.ktap" &&
	grep -q "^not ok 2 aborted in stage builds" "$tmp/build/check/results.ktap" ||
	fail "KTAP: $(cat "$tmp/build/check/results.ktap")"

rm -rf "$tmp/build"
run_fake sleep >"$tmp/out" 2>&1 &
pid=$!
for _ in $(seq 50); do
	grep -q '^==> a build' "$tmp/out" 2>/dev/null && break
	sleep 0.2
done
# SIGTERM, as CI sends: a background job of a script ignores SIGINT.
kill -TERM "$pid"
rc=0
wait "$pid" || rc=$?
[ "$rc" = 130 ] || fail "the interrupted run exited $rc, not 130"
grep -qx "FAIL interrupted in stage builds (not run: bisect tip tooling vm)" \
	"$tmp/build/check/results" || fail "results: $(cat "$tmp/build/check/results")"
[[ $(tail -n 1 "$tmp/out") == "1 passed, 1 failed"* ]] || fail "interrupted run ended: $(tail -n 3 "$tmp/out")"
! pgrep -f '^sleep 120$' >/dev/null || fail "the interrupted run left its build running"
# The demo's steps (scripts/lib.sh's stop_children_on_signal).
BUILD_DIR=$tmp/build bash -c '
	set -euo pipefail
	. "$1/scripts/lib.sh"
	stop_children_on_signal
	step "a demo build" sleep 120' run-abort "$root" >"$tmp/demo.out" 2>&1 &
pid=$!
for _ in $(seq 50); do
	grep -q '^==> a demo build' "$tmp/demo.out" 2>/dev/null && break
	sleep 0.2
done
kill -TERM "$pid"
rc=0
wait "$pid" || rc=$?
[ "$rc" = 130 ] || fail "the interrupted demo exited $rc, not 130"
! pgrep -f '^sleep 120$' >/dev/null || fail "the interrupted demo left its build running"

echo "run-abort: an aborted and an interrupted run each end with the summary, naming the stages not run, nothing left running; so does the demo's"
