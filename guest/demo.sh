#!/bin/bash
# The demo's part inside the VM (scripts/demo.sh boots it): the flight
# recorder in three acts, each ending in a verdict line computed from what
# happened; the demo fails if a story did not happen.
#   1. tail tracking: one workload, three kinds of ring buffer, side by side;
#   2. a persistent session records while no perf runs; a workload runs and
#      exits; a snapshot taken later still names it;
#   3. --sample-snapshot: samples stay in the kernel until a trigger.
# Workloads and recorders are pinned to CPUs, and the counts come from
# syscalls, not from time: the outcome does not depend on emulation speed.
set -euo pipefail

: "${BUILD:?}"
tmp=$(mktemp -d)
trap 'perf ctl -d flight >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
failed=0

show() { echo; echo "\$ $*"; "$@"; }
act() { echo; echo "======== $*"; }
verdict() { # verdict OK TEXT
	if [ "$1" = 0 ]; then echo "verdict: $2: ok"; else echo "verdict: $2: FAILED"; failed=1; fi
}
now() { date +%s.%N; }
secs_between() { echo "$2 - $1" | bc | xargs printf '%.1f'; }

echo "kernel $(uname -r), $(nproc) CPUs"

act "1. Tail tracking: 1000 records into a one-page buffer, three ways"
show taskset -c 0 "$BUILD/demo/three-buffers" 1000 || failed=1

act "2. A persistent session: recording with no perf running"
# User-mode samples, one per ms, on CPU 1 only: the workload runs there;
# a 512 KiB buffer holds far more than it makes.
show perf record -P flight -e cpu-clock:u -c 1000000 -C 1 -m 128
cp /bin/bash "$tmp/crunch"
# shellcheck disable=SC2016 # the loop runs in crunch
show taskset -c 1 "$tmp/crunch" -c 'i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done'
exited=$(now)
echo "(crunch has exited; no perf process is running)"
show perf ctl -l
# perf ctl -l columns: 8 records, 9 overwritten (see perf-ctl.txt)
records=$(perf ctl -l | awk '$1 == "flight" { print $8 }')
overwritten=$(perf ctl -l | awk '$1 == "flight" { print $9 }')
snapped=$(now)
show perf record -e persistent/flight/ -a -o "$tmp/flight.data"
echo
echo "\$ perf report -i flight.data --stdio --sort comm,dso | sed -n 1,8p"
perf report -i "$tmp/flight.data" --stdio --sort comm,dso 2>/dev/null |
	sed -n '/^ /p' | sed -n 1,8p
crunch=$(perf script -i "$tmp/flight.data" -F comm 2>/dev/null | grep -c '^ *crunch *$' || true)
show perf ctl -d flight
[ "$crunch" -gt 0 ] && [ "${records:-0}" -ge "$crunch" ] && [ "${overwritten:-x}" = 0 ]
verdict $? "persistent session: $crunch samples named crunch, which exited $(secs_between "$exited" "$snapped") s before the snapshot; the session recorded $records, overwrote ${overwritten:-?}"

act "3. --sample-snapshot: samples kept in the kernel until a trigger"
# getppid() samples on CPU 1 into a one-page buffer, fed only by the
# benchmark pinned there: 5000 calls, far more than one page holds.
mkfifo "$tmp/ctl" "$tmp/ack"
perf record --sample-snapshot -e syscalls:sys_enter_getppid -c 1 -C 1 -m 1 \
	--control "fifo:$tmp/ctl,$tmp/ack" -o "$tmp/snap.data" 2>"$tmp/snap.err" &
rec=$!
exec 3<>"$tmp/ctl" 4<>"$tmp/ack"
echo ping >&3
read -r -t 120 _ <&4
echo "\$ perf record --sample-snapshot -e syscalls:sys_enter_getppid -c 1 -C 1 -m 1 --control ... &"
show taskset -c 1 perf bench syscall basic --loop 5000
exited=$(now)
sleep 2
echo "\$ echo snapshot >ctl     (the trigger, 2 s after the benchmark exited)"
snapped=$(now)
echo snapshot >&3
read -r -t 120 _ <&4
echo stop >&3
wait "$rec"
exec 3>&- 4>&-
sed 's/^/    /' "$tmp/snap.err"
out=$(perf script -i "$tmp/snap.data" -F comm,event --show-lost-events 2>/dev/null)
samples=$(grep -c sys_enter_getppid <<<"$out" || true)
named=$(grep -c 'syscall-basic .*sys_enter_getppid' <<<"$out" || true)
lost=$(awk '/PERF_RECORD_LOST/ { n += $NF } END { print n + 0 }' <<<"$out")
[ "$samples" -gt 0 ] && [ "$named" = "$samples" ] && [ $((samples + lost)) = 5000 ]
verdict $? "sample snapshot: $samples samples kept, all named syscall-basic, which exited $(secs_between "$exited" "$snapped") s before the trigger; $lost overwritten and counted ($samples + $lost = 5000 calls)"

echo
[ "$failed" = 0 ] && echo "demo: all three stories happened" ||
	echo "demo: FAILED (see the verdicts above)"
exit "$failed"
