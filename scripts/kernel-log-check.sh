#!/usr/bin/env bash
# kernel-log-check.sh FILE...: exit 1 and print the report if the kernel
# messages in FILEs show a BUG, WARNING, KASAN, lockdep or kmemleak report,
# an oops or a panic.  Console captures mix in user output, so there only
# lines with a printk timestamp count.
set -euo pipefail

pattern='(BUG:|WARNING:|Oops|kernel BUG at|general protection fault|Kernel panic|INFO: (possible|inconsistent|trying to register|task .* blocked)|KASAN:|unreferenced object 0x)'

kernel_lines() {
	local f
	for f in "$@"; do
		[ -f "$f" ] || continue
		case "$f" in
		*console*) grep -E '^\[ *[0-9]+\.[0-9]+\]' "$f" || true ;;
		*) cat "$f" ;;
		esac
	done
}

if kernel_lines "$@" | grep -qE "$pattern"; then
	echo "KERNEL REPORT in the guest log:"
	kernel_lines "$@" | grep -E -A 30 "$pattern" | head -n 80
	exit 1
fi
