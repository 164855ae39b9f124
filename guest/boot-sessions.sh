#!/bin/bash
# perf with a session the kernel created at boot (perf_persistent=, see
# check/vm.sh's "boot" VM), as TAP: perf ctl lists it as root's, perf record
# reads it and perf script shows the exec of PID 1 from it, perf ctl -d
# deletes it. The session has no -meta companion: it records its own COMM,
# FORK and EXIT.
set -uo pipefail

# shellcheck source=guest/tap.sh
. "$(dirname "$0")/tap.sh"
name=boot_execs
data=$(mktemp /tmp/boot.XXXXXX)
trap 'rm -f "$data"' EXIT
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
tap_done
