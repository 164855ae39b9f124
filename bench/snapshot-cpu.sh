#!/bin/bash
# Runs in the guest: perf record's own CPU time (task-clock, counted by
# perf stat attached to it) while CPU 0 makes CALLS getppid() calls, each
# a sample, for plain perf record, --overwrite and --sample-snapshot
# (without a trigger, and with TRIGGERS snapshots during the run). perf
# record runs on CPU 1; its start-up and exit are left out: perf stat is
# attached after a control 'ping' is acknowledged and stopped before
# 'stop'.
set -euo pipefail

calls=${1:-200000}
triggers=${2:-10}
tmp=$(mktemp -d /tmp/snapshot-cpu.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# attached PID: has PID opened a perf event yet?
attached() {
	local fd
	for fd in /proc/"$1"/fd/*; do
		[[ $(readlink "$fd" 2>/dev/null) == *perf_event* ]] && return 0
	done
	return 1
}

# measure LABEL TRIGGERS ARGS...: prints "LABEL MSEC BYTES".
measure() {
	local label=$1 trig=$2 pid spid reply
	shift 2
	rm -f "$tmp/ctl" "$tmp/ack" "$tmp/out.data"
	mkfifo "$tmp/ctl" "$tmp/ack"
	taskset -c 1 perf record "$@" -e syscalls:sys_enter_getppid -c 1 -C 0 -m 64 \
		--control "fifo:$tmp/ctl,$tmp/ack" -o "$tmp/out.data" \
		2>"$tmp/err" &
	pid=$!
	exec 3<>"$tmp/ctl" 4<>"$tmp/ack"
	echo ping >&3
	read -r -t 300 reply <&4
	taskset -c 1 perf stat -x, -e task-clock -p "$pid" -o "$tmp/stat" &
	spid=$!
	until attached "$spid"; do
		sleep 0.1
	done
	for ((i = 0; i < trig; i++)); do
		taskset -c 0 perf bench syscall basic --loop $((calls / trig)) >/dev/null
		echo snapshot >&3
		read -r -t 300 reply <&4
	done
	if [ "$trig" = 0 ]; then
		taskset -c 0 perf bench syscall basic --loop "$calls" >/dev/null
	fi
	sleep 1
	kill -INT "$spid"
	wait "$spid" || true
	echo stop >&3
	wait "$pid"
	exec 3>&- 4>&-
	echo "$label $(awk -F, '/task-clock/ { print $1 }' "$tmp/stat") $(stat -c %s "$tmp/out.data")"
	[ "$reply" = ack ] || { echo "no ack: $(cat "$tmp/err")" >&2; exit 1; }
}

echo "mode perf_record_msec output_bytes ($calls calls)"
measure plain 0
measure overwrite 0 --overwrite
measure sample-snapshot 0 --sample-snapshot
measure "sample-snapshot+${triggers}" "$triggers" --sample-snapshot
