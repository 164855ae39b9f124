#!/bin/bash
# perf record's own CPU time over a fixed workload in plain, --overwrite
# and --sample-snapshot mode, side by side in one VM run under -icount
# (guest time counts instructions), and the ratios to plain record.
# CALLS getppid() samples per mode, TRIGGERS snapshots in the last row.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

out=$BUILD/bench
mkdir -p "$out"
"$ROOT/scripts/vm-run.sh" -k release -c 2 -i -- \
	env PATH="$BUILD/perf:$PATH" bash "$ROOT/bench/snapshot-cpu.sh" \
	"${CALLS:-200000}" "${TRIGGERS:-10}" | tee "$out/snapshot-cpu.txt"
awk '$1 == "plain" { p = $2 } $2 ~ /^[0-9.]+$/ { t[$1] = $2 }
	END { for (m in t) if (p) printf "%s/plain: %.3f\n", m, t[m] / p }' \
	"$out/snapshot-cpu.txt" | sort
