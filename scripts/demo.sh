#!/usr/bin/env bash
# The demo: build what is missing (a second run reuses every build), boot
# the demo kernel and show perf working in it.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

t0=$(date +%s)
step setup "$ROOT/scripts/setup.sh"
step tree "$ROOT/scripts/tree.sh"
step kernel-vm "$ROOT/scripts/build-kernel.sh" vm
step perf "$ROOT/scripts/build-perf.sh"
echo "==> booting the demo kernel (builds took $(fmt_secs $(($(date +%s) - t0))))"
"$ROOT/scripts/vm-run.sh" -k vm -t 600 -- bash "$ROOT/scripts/demo-guest.sh"
