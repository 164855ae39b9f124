#!/usr/bin/env bash
# The demo: build what is missing (a second run reuses every build), boot
# the release kernel and tell the flight recorder's story in it
# (guest/demo.sh): tail tracking beside upstream's buffers, a persistent
# session, --sample-snapshot, and a session frozen by a trigger (the
# glitch), each with a verdict. Fails if a story did not happen.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

# The series' uapi header, for the program that reads data_overwritten.
build_demo_program() {
	make -C "$SRC" O="$BUILD/headers" headers
	mkdir -p "$BUILD/demo"
	gcc -O2 -Wall -Werror -isystem "$BUILD/headers/usr/include" \
		-o "$BUILD/demo/three-buffers" "$ROOT/guest/three-buffers.c"
}

require_root
stop_children_on_signal
t0=$(date +%s)
echo "demo: builds the series' kernel and perf (minutes the first time), boots" \
	"them in QEMU and shows the flight recorder in four acts, each ending" \
	"in a verdict: tail tracking, a persistent session, sample snapshots," \
	"and a trigger that freezes a session at a glitch."
step setup "$ROOT/scripts/setup.sh"
say_base
step tree "$ROOT/scripts/tree.sh"
step kernel-release "$ROOT/scripts/build-kernel.sh" release
step perf "$ROOT/scripts/build-perf.sh"
step demo-program build_demo_program
echo "==> booting the demo kernel (builds took $(fmt_secs $(($(date +%s) - t0))))"
"$ROOT/scripts/vm-run.sh" -k release -c 2 -t 900 -- bash "$ROOT/guest/demo.sh"
echo "demo: $(fmt_secs $(($(date +%s) - t0))) in all"
