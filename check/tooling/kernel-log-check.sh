#!/usr/bin/env bash
# scripts/kernel-log-check.sh catches each kind of kernel report and lets
# a clean log, and user output that merely says "WARNING:", through.
set -euo pipefail

checker=$(cd "$(dirname "$0")/../../scripts" && pwd)/kernel-log-check.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

clean='[    0.000000] Linux version 6.12.57
[    1.234567] perf: interrupt took too long (2501 > 2500)'
printf '%s\n' "$clean" >"$tmp/dmesg.txt"
"$checker" "$tmp/dmesg.txt" >/dev/null || fail "clean dmesg flagged"

printf '%s\nWARNING: perf says this, not the kernel\n' "$clean" >"$tmp/console.log"
"$checker" "$tmp/console.log" >/dev/null || fail "user output flagged"

reports=(
	'[    5.1] WARNING: CPU: 1 PID: 77 at kernel/events/ring_buffer.c:42 f+0x1/0x2'
	'[    5.1] BUG: KASAN: slab-use-after-free in perf_mmap_close+0x1/0x2'
	'[    5.1] WARNING: possible circular locking dependency detected'
	'[    5.1] BUG: sleeping function called from invalid context at mm/slub.c:1'
	'[    5.1] Oops: general protection fault, probably for non-canonical address'
	'[    5.1] Kernel panic - not syncing: Fatal exception'
	'[    5.1] INFO: possible recursive locking detected'
	'[    5.1] BUG: kernel NULL pointer dereference, address: 0000000000000008'
)
for r in "${reports[@]}"; do
	printf '%s\n%s\n' "$clean" "$r" >"$tmp/console.log"
	if "$checker" "$tmp/console.log" >"$tmp/out"; then
		fail "not caught: $r"
	fi
	grep -qF "${r#*] }" "$tmp/out" || fail "report not printed: $r"
done

printf 'unreferenced object 0xffff888003a4c000 (size 64):\n  comm "t"\n' >"$tmp/kmemleak.txt"
if "$checker" "$tmp/kmemleak.txt" >/dev/null; then fail "kmemleak report missed"; fi
echo "kernel-log-check: ${#reports[@]} reports caught, clean logs passed"
