#!/bin/bash
# The demo's part inside the VM (scripts/demo.sh boots it): the flight
# recorder in four acts, each ending in a verdict line computed from what
# happened; the demo fails if a story did not happen.
#   1. tail tracking: one workload, three kinds of ring buffer, side by side;
#   2. a persistent session records while no perf runs; a workload runs and
#      exits; a snapshot taken later still names it;
#   3. --sample-snapshot: samples stay in the kernel until a trigger;
#   4. the glitch: a kernel trigger freezes a session while noise runs on;
#      read later, it still holds what led up to the glitch.
# Workloads and recorders are pinned to CPUs, and the counts come from
# syscalls and records, not from time: the outcome does not depend on
# emulation speed.
set -euo pipefail

: "${BUILD:?}"
tmp=$(mktemp -d)
noise= # act 4's background workload, while it runs
trap '[ -z "$noise" ] || kill "$noise" 2>/dev/null || true
	perf ctl -d flight >/dev/null 2>&1 || true
	perf ctl -d glitch >/dev/null 2>&1 || true
	rm -rf "$tmp"' EXIT
failed=0

# The demo kernel is built without bpf() (no CONFIG_BPF_SYSCALL: a smaller
# build), so each perf record would warn that it could not list the BPF
# programs, which is not part of the story: that one line is dropped.
perf() {
	local -a rc
	{
		command perf "$@" 2>&1 1>&3 3>&- |
			{ grep -vxF "Couldn't synthesize bpf events." || :; } >&2
		rc=("${PIPESTATUS[@]}")
	} 3>&1
	return "${rc[0]}"
}
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

act "4. The glitch: a trigger freezes a session, the noise after it is lost"
# User-mode samples of CPU 1, one per ms, into a 4 KiB buffer: it holds
# under a tenth of a second. The trigger is in the kernel: the first task
# that renames itself glitch freezes the session on every CPU.
echo
echo "\$ perf record -P glitch -e cpu-clock:u -c 1000000 -C 1 -m 1 --freeze-on task:task_rename --freeze-filter 'newcomm == \"glitch\"'"
perf record -P glitch -e cpu-clock:u -c 1000000 -C 1 -m 1 \
	--freeze-on task:task_rename --freeze-filter 'newcomm == "glitch"'
sysfs=/sys/bus/event_source/devices/persistent/sessions/glitch
cp /bin/bash "$tmp/noise"
cp /bin/bash "$tmp/victim"
# The noise: a busy loop on CPU 1 that runs until the act ends.
echo
echo "\$ taskset -c 1 noise -c 'while :; do :; done' &"
# shellcheck disable=SC2016 # the loop runs in noise
taskset -c 1 "$tmp/noise" -c 'while :; do :; done' &
noise=$!
# The victim shares CPU 1 with the noise, then hits the glitch.
# shellcheck disable=SC2016 # the loop runs in victim
work='i=0; while [ $i -lt 10000 ]; do i=$((i+1)); done; printf glitch >/proc/self/comm'
echo "\$ taskset -c 1 victim -c '$work'"
taskset -c 1 "$tmp/victim" -c "$work"
# perf ctl -l column 12: the state
state=$(perf ctl -l | awk '$1 == "glitch" { print $12 }')
records=$(cat "$sysfs/records")
kept=$((records - $(cat "$sysfs/overwritten")))
lost=$(cat "$sysfs/lost")
# Let the noise run on until it has made more records than the buffer
# holds: unfrozen, the buffer would keep none of the victim's.
for _ in $(seq 600); do
	[ "$(cat "$sysfs/lost")" -le $((lost + kept)) ] || break
	sleep 0.1
done
show perf ctl -l
grew=$(($(cat "$sysfs/lost") - lost))
[ "$(cat "$sysfs/records")" = "$records" ] && stayed=1 || stayed=0
show perf record -e persistent/glitch/ -C 1 -o "$tmp/glitch.data"
kill "$noise" 2>/dev/null || true
wait "$noise" 2>/dev/null || true
noise=
echo
echo "\$ perf script -i glitch.data -F comm,tid,time,event | tail -n 5"
perf script -i "$tmp/glitch.data" -F comm,tid,time,event 2>/dev/null | tail -n 5
show perf ctl -d glitch
at=${state#frozen@}
out=$(perf script -i "$tmp/glitch.data" -F comm,time,event 2>/dev/null)
samples=$(grep -c cpu-clock <<<"$out" || true)
victims=$(grep -c '^ *victim .*cpu-clock' <<<"$out" || true)
# At most a sample begun as the session froze may follow its time.
after=$(awk -v t="$at" '/cpu-clock/ && $2 + 0 > t { n++ } END { print n + 0 }' <<<"$out")
marked=$(grep -cx "session glitch frozen by its trigger on CPU 1 at $at" <<<"$out" || true)
[[ $state == frozen@* ]] && [ "$stayed" = 1 ] && [ "$grew" -gt "$kept" ] &&
	[ "$samples" = "$kept" ] && [ "$victims" -gt 0 ] && [ "$after" -le 1 ] && [ "$marked" = 1 ]
verdict $? "glitch: frozen at $at s on CPU 1; then records stayed at $records while $grew more were lost, more than the $kept the buffer holds; read later: those $samples samples, $victims of them victim's, $after after the freeze, which perf script marks"

echo
[ "$failed" = 0 ] && echo "demo: all four stories happened" ||
	echo "demo: FAILED (see the verdicts above)"
exit "$failed"
