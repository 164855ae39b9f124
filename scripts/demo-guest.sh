#!/bin/bash
# The demo's part inside the VM (run by demo.sh through vm-run.sh).
set -euo pipefail

show() { echo; echo "\$ $*"; "$@"; }

show uname -r
show nproc
show perf stat -e task-clock,page-faults,context-switches -- \
	dd if=/dev/zero of=/dev/null bs=4k count=20000
# shellcheck disable=SC2016 # the loop runs in sh
show perf record -e cpu-clock -c 100000 -o /tmp/perf.data -- \
	sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done'
show perf report -i /tmp/perf.data --stdio --sort comm,dso 2>/dev/null | head -n 20
