#!/usr/bin/env bash
# The test command always ends with its summary and names what did not
# run: a command failing outside a check (set -e) and a SIGTERM in the
# middle of a stage each end the run with the "N passed, N failed" line,
# a failure naming the stage and the stages after it, and nothing the
# run started left running; a run that ends normally prints the summary
# once, with its own exit status. The demo's builds stop on SIGTERM too.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# A build step that sleeps this long is this test's alone.
nap=$((86400 + $$))
napping() { pgrep -f "^sleep $nap\$" >/dev/null; }

# terminate PID: once its build step naps, SIGTERM it (as CI sends: a
# background job of a script ignores SIGINT); its exit status in rc.
terminate() {
	for _ in $(seq 100); do
		napping && break
		sleep 0.1
	done
	kill -TERM "$1"
	rc=0
	wait "$1" || rc=$?
}

# run_fake HOW: check/run.sh's traps (arm_traps, as main sets them)
# around three stages; the third "abort"s (a failing command once its
# build runs), "sleep"s (until it is interrupted) or "end"s normally.
run_fake() {
	BUILD_DIR=$tmp/build exec bash -c '
		set -euo pipefail
		. "$1/check/run.sh"
		mkdir -p "$CHECK_DIR"
		: >"$RESULTS"
		: >"$STAGES"
		arm_traps
		stage static
		record PASS "static check"
		stage builds
		if [ "$2" = end ]; then
			check "a build" true
			stage ""
			summary
			exit
		fi
		check "a build" sleep "$3" &
		until pgrep -f "^sleep $3\$" >/dev/null; do sleep 0.1; done
		if [ "$2" = abort ]; then false; fi
		wait' run-abort "$root" "$1" "$nap"
}

rc=0
out=$(run_fake abort 2>&1) || rc=$?
[ "$rc" != 0 ] || fail "the aborted run exited 0"
grep -qx "FAIL aborted in stage builds (not run: bisect tip tooling vm)" \
	"$tmp/build/check/results" || fail "results: $(cat "$tmp/build/check/results")"
[[ $(tail -n 1 <<<"$out") == "1 passed, 1 failed"* ]] || fail "aborted run ended: $(tail -n 3 <<<"$out")"
! napping || fail "the aborted run left its build running"
{ grep -qx "1..2" "$tmp/build/check/results.ktap" &&
	grep -qx "ok 1 static check" "$tmp/build/check/results.ktap" &&
	grep -q "^not ok 2 aborted in stage builds" "$tmp/build/check/results.ktap"; } ||
	fail "KTAP: $(cat "$tmp/build/check/results.ktap")"

rm -rf "$tmp/build"
run_fake sleep >"$tmp/out" 2>&1 &
terminate $!
[ "$rc" = 143 ] || fail "the interrupted run exited $rc, not 143"
grep -qx "FAIL interrupted in stage builds (not run: bisect tip tooling vm)" \
	"$tmp/build/check/results" || fail "results: $(cat "$tmp/build/check/results")"
[[ $(tail -n 1 "$tmp/out") == "1 passed, 1 failed"* ]] || fail "interrupted run ended: $(tail -n 3 "$tmp/out")"
! napping || fail "the interrupted run left its build running"

rm -rf "$tmp/build"
rc=0
out=$(run_fake end 2>&1) || rc=$?
[ "$rc" = 0 ] || fail "a run that passed exited $rc: $out"
[ "$(grep -c ' passed, ' <<<"$out")" = 1 ] || fail "not one summary: $out"
[[ $(tail -n 1 <<<"$out") == "2 passed, 0 failed"* ]] || fail "the passed run ended: $(tail -n 3 <<<"$out")"

# The demo's steps (scripts/lib.sh's stop_children_on_signal).
BUILD_DIR=$tmp/build bash -c '
	set -euo pipefail
	. "$1/scripts/lib.sh"
	stop_children_on_signal
	step "a demo build" sleep "$2"' run-abort "$root" "$nap" >"$tmp/demo.out" 2>&1 &
terminate $!
[ "$rc" = 130 ] || fail "the interrupted demo exited $rc, not 130"
! napping || fail "the interrupted demo left its build running"
echo "run-abort: an aborted and an interrupted run each end with the summary, naming the stages not run, nothing left running; a passed run prints one summary and exits 0; the demo stops its builds"
