#!/usr/bin/env bash
# ccache-gcc.sh ARGS...: the compiler of the kernel and perf builds: gcc
# through ccache in depend mode, where a miss runs gcc once instead of
# running the preprocessor first (a quarter less time on a cold cache).
# Depend mode in ccache 4.7 does not notice an .incbin directive: it would
# hand back the piggy.o of an unchanged piggy.S for a changed vmlinux.bin,
# and the boot image would hold an older kernel. A source that names
# .incbin is compiled by gcc itself. CCACHE_NODEPEND=1 turns depend mode off.
set -euo pipefail

for arg; do
	case "$arg" in
	*.c | *.S)
		if [ -f "$arg" ] && grep -q incbin "$arg"; then
			exec gcc "$@"
		fi
		;;
	esac
done
[ -n "${CCACHE_NODEPEND:-}" ] || export CCACHE_DEPEND=1
exec ccache gcc "$@"
