#!/bin/bash
# Write-path cost of perf ring buffers per record under -icount (guest
# time counts instructions): no buffer, forward writable, forward
# overwrite (tail tracking) and backward, side by side in one VM run of the
# series kernel, then the same program on the unpatched base kernel so the
# writable path can be compared before and after the series.
# LOOPS syscalls per mode and ROUNDS interleaved rounds (best kept).
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

loops=${LOOPS:-20000}
rounds=${ROUNDS:-3}
out=$BUILD/bench
base_src=$BUILD/linux-base
base_out=$BUILD/kernel-vm-base
mkdir -p "$out"
gcc -O2 -Wall -Werror \
	-o "$out/rb-cost" "$ROOT/bench/rb-cost.c"

# The base kernel: a worktree of the base commit, same fragments, own
# output directory (ccache makes it cheap after the first build).
# A worktree left over from an earlier kernel tree is stale: re-create it.
if ! git -C "$base_src" rev-parse -q --verify HEAD >/dev/null 2>&1; then
	rm -rf "$base_src"
	git -C "$SRC" worktree prune
	git -C "$SRC" worktree add -q --detach "$base_src" "$BASE_TAG"
fi
git -C "$base_src" checkout -q --detach "$BASE_TAG"
KERNEL_OUT=$base_out "$ROOT/scripts/build-kernel.sh" vm "$base_src" \
	>"$out/kernel-base.log" 2>&1 ||
	die "base kernel build failed, see $out/kernel-base.log"

note "series kernel"
"$ROOT/scripts/vm-run.sh" -k vm -c 1 -i -- \
	"$out/rb-cost" "$loops" "$rounds" | tee "$out/series.txt"
note "base kernel (no series)"
KERNEL_OUT=$base_out "$ROOT/scripts/vm-run.sh" -k vm -c 1 -i -- \
	"$out/rb-cost" "$loops" "$rounds" | tee "$out/base.txt"

# Writable buffer, per record, series over base.
awk '/^forward writable/ { r[FILENAME] = $4 }
	END { s = r[ARGV[1]]; b = r[ARGV[2]];
	      if (s && b) printf "forward writable per record, series/base: %.4f\n", s / b }' \
	"$out/series.txt" "$out/base.txt"
