#!/bin/bash
# Write-path cost of perf ring buffers per record, side by side in one VM
# run of the demo kernel under -icount (guest time counts instructions):
# no buffer, forward writable, forward overwrite (tail tracking), backward.
# LOOPS syscalls per mode and ROUNDS interleaved rounds (best kept).
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

loops=${LOOPS:-20000}
rounds=${ROUNDS:-3}
out=$BUILD/bench
mkdir -p "$out"
gcc -O2 -Wall -Werror \
	-o "$out/rb-cost" "$ROOT/bench/rb-cost.c"
"$ROOT/scripts/vm-run.sh" -k vm -c 1 -i -- \
	"$out/rb-cost" "$loops" "$rounds"
