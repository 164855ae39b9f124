#!/usr/bin/env bash
# scripts/vm-run.sh: all CPUs come up with the TSC as their clock, scratch
# and result files work, the command's exit status comes back, a hang ends
# in the guest's own timeout with the blocked tasks dumped and the kernel
# log saved, SIGTERM leaves no QEMU behind, and a kernel WARNING fails the
# run and is printed.
set -euo pipefail
# The release kernel wherever the debug kernel's checkers are not what is
# tested: it boots and shuts down in seconds, the debug kernel's leak
# scans alone take 20 s under TCG.

scripts=$(cd "$(dirname "$0")/../../scripts" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# shellcheck disable=SC2016 # expanded in the guest
guest='test "$(nproc)" = 4 || { echo "only $(nproc) CPUs"; exit 1; }
test -x "$ROOT/scripts/vm-run.sh" || exit 1
cat /proc/cmdline >"$VM_OUT/cmdline"
cat /sys/devices/system/clocksource/clocksource0/current_clocksource >"$VM_OUT/clock"
echo scratch >/tmp/scratch && echo result >"$VM_OUT/result" || exit 1
exit 7'
rc=0
"$scripts/vm-run.sh" -k release -c 4 -t 300 -o "$tmp/run" -- bash -c "$guest" || rc=$?
[ "$rc" = 7 ] || fail "exit status $rc, expected 7"
[ "$(cat "$tmp/run/out/result")" = result ] || fail "result file did not come back"
# The guest's clock is the TSC, never jiffies, at the frequency vm-run.sh
# found for the host's (see tsc_early_khz there).
[ -s "$tmp/run/tsc_khz" ] || fail "vm-run.sh found no TSC frequency on this host"
grep -qw "tsc_early_khz=$(cat "$tmp/run/tsc_khz")" "$tmp/run/out/cmdline" ||
	fail "the guest's command line: $(cat "$tmp/run/out/cmdline")"
[ "$(cat "$tmp/run/out/clock")" = tsc ] ||
	fail "the guest's clock source is $(cat "$tmp/run/out/clock"), not tsc"

# A hang: the guest gives up at 20 s of uptime (half the timeout, for a
# timeout up to 120 s), dumps its blocked tasks to the console and saves
# its kernel log at once; the host would kill QEMU at 40 s.
rc=0
"$scripts/vm-run.sh" -k release -c 2 -t 40 -o "$tmp/hang" -- sleep 1000 >/dev/null 2>&1 || rc=$?
[ "$rc" = 124 ] || fail "a hang gave $rc, expected 124"
[ -e "$tmp/hang/guest-timeout" ] || fail "the guest's own timeout did not fire"
grep -q 'Show Blocked State' "$tmp/hang/console.log" ||
	fail "no blocked-task dump (sysrq w) on the console"
[ -s "$tmp/hang/dmesg.txt" ] || fail "the guest did not save its kernel log"

# SIGTERM to the runner takes QEMU down with it.
"$scripts/vm-run.sh" -k release -c 2 -t 300 -o "$tmp/term" -- sleep 1000 >/dev/null 2>&1 &
runner=$!
sleep 5
pgrep -f "path=$tmp/term," >/dev/null || fail "QEMU did not start"
kill -TERM "$runner"
wait "$runner" 2>/dev/null || true
sleep 2
if pgrep -f "path=$tmp/term," >/dev/null; then
	pkill -f "path=$tmp/term,"
	fail "QEMU still running after SIGTERM to vm-run.sh"
fi

# LKDTM is in the debug kernel only.
rc=0
"$scripts/vm-run.sh" -k debug -t 300 -o "$tmp/run" -- \
	sh -c 'echo WARNING >/sys/kernel/debug/provoke-crash/DIRECT' \
	2>"$tmp/err" || rc=$?
[ "$rc" != 0 ] || fail "a kernel WARNING passed"
grep -q 'KERNEL REPORT' "$tmp/err" || fail "the report was not printed"
grep -q 'WARNING:' "$tmp/err" || fail "the WARNING line was not printed"
echo "vm-runner: status, results, hang evidence, SIGTERM and splat detection work"
