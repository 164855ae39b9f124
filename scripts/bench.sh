#!/bin/bash
# Write-path cost of perf ring buffers per record under -icount (guest
# time counts instructions): no buffer, forward writable, forward
# read-only overwrite, tail-tracked, tail-tracked with an idle freeze
# trigger, backward, and ftrace's overwriting instance as a peer, in
# buffers of 1, 8 and 64 data pages (PAGES), side by side in one boot of
# the series kernel, then the same program in one boot of the unpatched
# base kernel, so that each mode can be compared before and after the
# series. Both kernels are the bench flavour: the release kernel built
# -O2 (configs/bench.config), the base in its own worktree
# (build/linux-base-bench) so that neither build is ever cold again.
# LOOPS syscalls per mode and ROUNDS interleaved rounds (best kept).
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

loops=${LOOPS:-20000}
rounds=${ROUNDS:-3}
read -ra pages <<<"${PAGES:-1 8 64}"
out=$BUILD/bench
base_src=$BUILD/linux-base-bench
mkdir -p "$out"

# rb-cost uses the series' UAPI (attr.tail_track, the trigger ioctl).
make -C "$SRC" O="$out/hdr" ARCH=x86_64 -j"$JOBS" headers >/dev/null
gcc -O2 -Wall -Werror -I"$out/hdr/usr/include" \
	-o "$out/rb-cost" "$ROOT/bench/rb-cost.c"

note "series kernel, -O2"
"$ROOT/scripts/build-kernel.sh" bench >"$out/kernel-series.log" 2>&1 ||
	die "series bench kernel build failed, see $out/kernel-series.log"
note "base kernel, -O2"
if [ ! -d "$base_src" ]; then
	kgit worktree prune
	kgit worktree add -q --detach "$base_src" "$BASE_TAG"
fi
git -C "$base_src" checkout -q --detach "$(kgit rev-parse "$BASE_TAG")"
KERNEL_OUT=$BUILD/kernel-bench-base "$ROOT/scripts/build-kernel.sh" bench \
	"$base_src" >"$out/kernel-base.log" 2>&1 ||
	die "base bench kernel build failed, see $out/kernel-base.log"

note "series kernel"
"$ROOT/scripts/vm-run.sh" -k bench -c 1 -i -- \
	"$out/rb-cost" "$loops" "$rounds" "${pages[@]}" | tee "$out/series.txt"
note "base kernel (no series)"
KERNEL_OUT=$BUILD/kernel-bench-base "$ROOT/scripts/vm-run.sh" -k bench -c 1 -i -- \
	"$out/rb-cost" "$loops" "$rounds" "${pages[@]}" | tee "$out/base.txt"

# Per table (data pages): each mode's cost per record, series / base, and
# the series' tail-tracked buffer over its writable one.
note "summary"
awk '
	/data pages,/ { p = $1; if (!(p in seen)) { seen[p]; order[n++] = p } }
	/^forward writable / { w[FILENAME, p] = $4 }
	/^backward / { b[FILENAME, p] = $3 }
	/^forward overwrite / { o[FILENAME, p] = $4 }
	/^tail-tracked  +/ && $3 != "n/a" { t[FILENAME, p] = $3 }
	/^tail\+trigger  +/ && $3 != "n/a" { g[FILENAME, p] = $3 }
	/^perf tail-tracked/ { f[p] = $NF }
	END {
		s = ARGV[1]; B = ARGV[2]
		printf "%-6s %10s %10s %10s %12s %12s %12s\n", "pages",
		       "writable", "backward", "overwrite", "tail/writ", "trig/tail",
		       "perf/ftrace"
		printf "%-6s %10s %10s %10s %12s %12s %12s\n", "",
		       "ser/base", "ser/base", "ser/base", "series", "series", "series"
		for (i = 0; i < n; i++) {
			p = order[i]
			printf "%-6s %10.4f %10.4f %10.4f %12.4f %12.4f %12s\n", p,
			       w[s, p] / w[B, p], b[s, p] / b[B, p], o[s, p] / o[B, p],
			       t[s, p] / w[s, p], g[s, p] / t[s, p], f[p]
		}
	}' "$out/series.txt" "$out/base.txt" | tee "$out/summary.txt"
