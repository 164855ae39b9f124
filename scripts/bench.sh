#!/bin/bash
# Write-path cost of perf ring buffers per record under -icount (guest
# time counts instructions): no buffer, forward writable, forward
# overwrite (tail tracking), the same with an idle freeze trigger, and
# backward, side by side in one VM run of the
# series kernel, then the same program on the unpatched base kernel so the
# writable path can be compared before and after the series.
# LOOPS syscalls per mode and ROUNDS interleaved rounds (best kept), in
# buffers of PAGES data pages.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

loops=${LOOPS:-20000}
rounds=${ROUNDS:-3}
pages=${PAGES:-64}
out=$BUILD/bench
mkdir -p "$out"
gcc -O2 -Wall -Werror \
	-o "$out/rb-cost" "$ROOT/bench/rb-cost.c"
"$ROOT/scripts/build-base-kernel.sh" >"$out/kernel-base.log" 2>&1 ||
	die "base kernel build failed, see $out/kernel-base.log"

note "series kernel"
"$ROOT/scripts/vm-run.sh" -k release -c 1 -i -- \
	"$out/rb-cost" "$loops" "$rounds" "$pages" | tee "$out/series.txt"
note "base kernel (no series)"
KERNEL_OUT=$BUILD/kernel-base "$ROOT/scripts/vm-run.sh" -k release -c 1 -i -- \
	"$out/rb-cost" "$loops" "$rounds" "$pages" | tee "$out/base.txt"

# Writable buffer, per record, series over base.
awk '/^forward writable/ { r[FILENAME] = $4 }
	END { s = r[ARGV[1]]; b = r[ARGV[2]];
	      if (s && b) printf "forward writable per record, series/base: %.4f\n", s / b }' \
	"$out/series.txt" "$out/base.txt"
# A buffer a trigger can freeze, per record, over one it cannot.
awk '/^forward overwrite/ { o = $4 } /^overwrite\+trigger/ { t = $3 }
	END { if (o && t) printf "overwrite with an idle trigger / without: %.4f\n", t / o }' \
	"$out/series.txt"
