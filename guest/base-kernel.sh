#!/bin/bash
# The series' perf on the unpatched base kernel (new perf, old kernel), as
# TAP: ordinary command lines work as before, and each new feature says
# that this kernel lacks it, instead of failing obscurely.
set -uo pipefail

# shellcheck source=guest/tap.sh
. "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# works NAME CMD...: CMD succeeds.
works() {
	local name=$1 out rc=0
	shift
	out=$("$@" 2>&1) || rc=1
	result "$rc" "$name" "$out"
}
# refuses NAME MESSAGE CMD...: CMD fails and says MESSAGE.
refuses() {
	local name=$1 msg=$2 out rc=0
	shift 2
	if out=$("$@" 2>&1); then
		rc=1
	else
		grep -qF -- "$msg" <<<"$out" || rc=1
	fi
	result "$rc" "$name" "$out"
}
samples() { perf report -i "$1" --stdio -F overhead,comm 2>/dev/null | grep -c "$2"; }

echo "# kernel $(uname -r), $(perf version)"
[ ! -d /sys/bus/event_source/devices/persistent ]
result $? "the base kernel has no persistent PMU"

cp /bin/bash "$tmp/spin"
# shellcheck disable=SC2016 # the loop runs in spin
spin=("$tmp/spin" -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done')
works "perf record of a workload" \
	perf record -q -e cpu-clock -c 100000 -o "$tmp/plain.data" -- "${spin[@]}"
[ "$(samples "$tmp/plain.data" spin)" -gt 0 ]
result $? "perf report names the workload"
works "perf record --overwrite (backward buffers)" \
	perf record -q --overwrite -e cpu-clock -c 100000 -o "$tmp/ow.data" -- "${spin[@]}"
works "perf script reads it" perf script -i "$tmp/ow.data"
works "perf stat" perf stat -e task-clock,page-faults -- true

refuses "perf ctl -l says the kernel has no persistent events" \
	"this kernel has no persistent events" perf ctl -l
refuses "perf record -P says the kernel has no persistent events" \
	"this kernel has no persistent events" \
	perf record -P basetest -e cpu-clock -a
refuses "--sample-snapshot says the kernel does not track the tail" \
	"tail tracking" \
	perf record --sample-snapshot -e cpu-clock -a -o "$tmp/s.data" -- true
refuses "--sample-snapshot --freeze-on says the kernel does not track the tail" \
	"tail tracking" \
	perf record --sample-snapshot --freeze-on=sched:sched_process_exit \
	-e cpu-clock -a -o "$tmp/f.data" -- true
refuses "perf record -P --freeze-on says the kernel has no persistent events" \
	"this kernel has no persistent events" \
	perf record -P basetest --freeze-on=sched:sched_process_exit -e cpu-clock -a
refuses "perf ctl --thaw says the kernel has no persistent events" \
	"this kernel has no persistent events" perf ctl --thaw basetest
refuses "perf record -e persistent/NAME/ says the kernel has no persistent events" \
	"this kernel has no persistent events" \
	perf record -e persistent/basetest/ -a -o "$tmp/p.data"
refuses "perf stat -e persistent/NAME/ says the kernel has no persistent events" \
	"this kernel has no persistent events" \
	perf stat -e persistent/basetest/ -a true
tap_done
