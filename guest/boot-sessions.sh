#!/bin/bash
# perf with sessions the kernel created at boot (perf_persistent=, see
# check/vm.sh's "boot" VM), as TAP: perf ctl lists boot_execs as root's,
# perf record reads it and perf script shows the exec of PID 1 from it,
# perf ctl -d deletes it. The sessions have no -meta companion: they record
# their own COMM, FORK and EXIT. Then a corrected machine check, injected
# in software through mce-inject, is read from mces, the session of
# mce:mce_record.
set -uo pipefail

# shellcheck source=guest/tap.sh
. "$(dirname "$0")/tap.sh"
name=boot_execs
data=$(mktemp /tmp/boot.XXXXXX)
mdata=$(mktemp /tmp/mces.XXXXXX)
trap 'rm -f "$data" "$mdata"' EXIT
export PAGER=cat

grep -qw "perf_persistent=$name,sched:sched_process_exec,size=64K" /proc/cmdline
result $? "booted with perf_persistent=$name,..." "$(cat /proc/cmdline)"

list=$(perf ctl -l 2>&1)
awk -v n="$name" -v c="$(cat /sys/devices/system/cpu/online)" \
	'$1 == n && $3 == c && $6 == "root" { f = 1 } END { exit !f }' <<<"$list"
result $? "perf ctl -l lists $name as root's, on every online CPU" "$list"

out=$(perf record -e "persistent/$name/" -a -o "$data" 2>&1)
result $? "perf record -e persistent/$name/ reads it" "$out"

script=$(perf script -i "$data" 2>&1)
exec1=$(grep -E 'sched:sched_process_exec: filename=[^ ]+ pid=1 old_pid=1$' <<<"$script")
result $? "perf script shows the exec of PID 1 from before user space" \
	"$(head -n 20 <<<"$script")"
[ -z "$exec1" ] || echo "# $exec1"

out=$(perf ctl -d "$name" 2>&1)
result $? "perf ctl -d deletes it" "$out"
[ ! -e "/sys/bus/event_source/devices/persistent/sessions/$name" ]
result $? "and it is gone from sysfs"

# mce-inject's "sw" injection hands the record it was given to mce_log(),
# as a poll of the banks does with what it finds there: nothing reaches
# the hardware, nothing can panic. The MCE work (an irq_work, then a
# kworker, so after the write returns) passes it down the decoder chain,
# whose first notifier fires mce:mce_record and whose last prints it.
# Status: valid and enabled, UC clear (corrected), error code 0x0091.
mces=mces bank=1 status=9000000000000091
inject=/sys/kernel/debug/mce-inject
grep -qw "perf_persistent=$mces,mce:mce_record,size=64K" /proc/cmdline &&
	[ -d "/sys/bus/event_source/devices/persistent/sessions/$mces" ]
result $? "booted with perf_persistent=$mces,mce:mce_record,...: a session" \
	"$(cat /proc/cmdline; dmesg | grep -F "perf_persistent=$mces")"

[ -d "$inject" ] || mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
# flags drops the last byte written (echo's newline); the numbers are
# read as C numbers, so the status needs its 0x. Writing bank injects.
out=$({ echo sw >"$inject/flags" && echo 0 >"$inject/cpu" &&
	echo "0x$status" >"$inject/status" && echo "$bank" >"$inject/bank"; } 2>&1)
result $? "mce-inject takes a corrected error for bank $bank" \
	"$(printf '%s\n' "$out"; dmesg | tail -n 5)"

# perf record reads what the buffers hold: wait for the last notifier's
# line in the kernel log, printed after the tracepoint fired.
for _ in $(seq 60); do
	[[ $(dmesg) == *"Bank $bank: $status"* ]] && break
	sleep 0.5
done
[[ $(dmesg) == *"Bank $bank: $status"* ]]
result $? "the kernel logged it within 30 s" "$(dmesg | tail -n 10)"

out=$(perf record -e "persistent/$mces/" -a -o "$mdata" 2>&1)
result $? "perf record -e persistent/$mces/ reads it" "$out"

script=$(perf script -i "$mdata" 2>&1)
mce=$(grep -E "mce:mce_record: CPU: [0-9]+, .* MC$bank: $status," <<<"$script")
result $? "perf script shows the machine check, MC$bank: $status" \
	"$(head -n 20 <<<"$script")"
[ -z "$mce" ] || echo "# $mce"
tap_done
