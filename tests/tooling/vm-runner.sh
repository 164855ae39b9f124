#!/usr/bin/env bash
# scripts/vm-run.sh: all CPUs come up, scratch and result files work, the
# command's exit status comes back, a timeout stops the VM, and a kernel
# WARNING fails the run and is printed.
set -euo pipefail

scripts=$(cd "$(dirname "$0")/../../scripts" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# shellcheck disable=SC2016 # expanded in the guest
guest='test "$(nproc)" = 4 || { echo "only $(nproc) CPUs"; exit 1; }
test -x "$ROOT/scripts/vm-run.sh" || exit 1
echo scratch >/tmp/scratch && echo result >"$VM_OUT/result" || exit 1
exit 7'
rc=0
"$scripts/vm-run.sh" -c 4 -t 300 -o "$tmp/run" -- bash -c "$guest" || rc=$?
[ "$rc" = 7 ] || fail "exit status $rc, expected 7"
[ "$(cat "$tmp/run/out/result")" = result ] || fail "result file did not come back"

rc=0
"$scripts/vm-run.sh" -t 40 -o "$tmp/run" -- sleep 1000 || rc=$?
[ "$rc" = 124 ] || fail "timeout gave $rc, expected 124"

rc=0
"$scripts/vm-run.sh" -t 300 -o "$tmp/run" -- \
	sh -c 'echo WARNING >/sys/kernel/debug/provoke-crash/DIRECT' \
	2>"$tmp/err" || rc=$?
[ "$rc" != 0 ] || fail "a kernel WARNING passed"
grep -q 'KERNEL REPORT' "$tmp/err" || fail "the report was not printed"
grep -q 'WARNING:' "$tmp/err" || fail "the WARNING line was not printed"
echo "vm-runner: status, results, timeout and splat detection work"
