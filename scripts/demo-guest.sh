#!/bin/bash
# The demo's part inside the VM (run by demo.sh through vm-run.sh): the
# flight recorder's whole story. A session records while nobody runs
# perf; a workload runs and exits; a snapshot taken afterwards still
# names it, because the session kept its tracking records too.
set -euo pipefail

show() { echo; echo "\$ $*"; "$@"; }

show uname -r
show nproc

# User-mode samples only, one per ms: idle CPUs add nothing, and a 512 KiB
# buffer per CPU holds about 13 s of CPU time, longer than the workload and
# the perf commands after it (perf starts slowly under emulation).
show perf record -P flight -e cpu-clock:u -c 1000000 -a -m 128

# A workload with a name of its own, that exits before anyone reads.
cp /bin/bash /tmp/crunch
# shellcheck disable=SC2016 # the loop runs in crunch
show /tmp/crunch -c 'i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done'
echo "(crunch has exited)"

show perf ctl -l
show perf record -e persistent/flight/ -a -o /tmp/flight.data
# sed, not head: head would close the pipe early, and pipefail would
# report perf's SIGPIPE.
echo
echo "\$ perf report -i /tmp/flight.data --stdio --sort comm,dso"
perf report -i /tmp/flight.data --stdio --sort comm,dso 2>/dev/null |
	sed -n '/^ /p' | sed -n 1,12p
echo
echo "\$ perf script -i /tmp/flight.data -F comm,pid,cpu,time,ip,dso | grep crunch"
perf script -i /tmp/flight.data -F comm,pid,cpu,time,ip,dso 2>/dev/null |
	sed -n '/crunch/p' | sed -n 1,5p
show perf stat -e persistent/flight/ -a -- true
show perf ctl -d flight
show perf ctl -l
