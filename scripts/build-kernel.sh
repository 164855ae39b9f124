#!/usr/bin/env bash
# build-kernel.sh release|debug|i386|bench [SRC_DIR]: build bzImage from
# tinyconfig plus the flavour's fragments (configs/<flavour>.config on top
# of release.config) into build/kernel-<flavour> (ccache, incremental).
# KERNEL_TARGETS (make targets, bzImage by default) builds less: the
# bisect builds folders of the debug flavour.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

flavour=${1:?usage: build-kernel.sh release|debug|i386|bench [source dir]}
src=${2:-$SRC}
out=${KERNEL_OUT:-$BUILD/kernel-$flavour}
frags=("$ROOT/configs/release.config")
case "$flavour" in
release) ;;
debug | i386 | bench) frags+=("$ROOT/configs/$flavour.config") ;;
*) die "unknown kernel flavour '$flavour'" ;;
esac
arch=$(kernel_arch "$flavour")

kmake() {
	make -C "$src" O="$out" ARCH="$arch" -j"$JOBS" \
		CC="$ROOT/scripts/ccache-gcc.sh" HOSTCC="ccache gcc" "$@"
}

# Every option the fragments ask for (the last fragment that names it
# wins) must be in the result: a dependency that Kconfig silently dropped
# would otherwise make the kernel miss a feature. Options the tree does not
# define are left out: a bisect state before the patch that adds them.
defined() {
	grep -rqs --include='Kconfig*' -E "^(menu)?config ${1#CONFIG_}\$" "$src"
}

verify_config() {
	local line opt val got bad=0
	declare -A want
	while IFS= read -r line; do
		case "$line" in CONFIG_*=*) want[${line%%=*}]=${line#*=} ;; esac
	done < <(cat "${frags[@]}")
	for opt in "${!want[@]}"; do
		val=${want[$opt]}
		got=$(grep -E "^$opt=" "$out/.config" | cut -d= -f2- || true)
		if [ "$val" = n ]; then
			[ -z "$got" ] && continue
		elif [ "$got" = "$val" ]; then
			continue
		fi
		defined "$opt" || continue
		echo "config: $opt wanted '$val', got '${got:-not set}'" >&2
		bad=1
	done
	return "$bad"
}

mkdir -p "$out"
stamp=$(cat "${frags[@]}" | sha256sum | cut -d' ' -f1)
# Regenerate the config when the fragments changed, or when a bisect state
# before the patch that adds an option dropped it (make's syncconfig).
if [ ! -f "$out/.config" ] ||
	[ "$(cat "$out/.fragments" 2>/dev/null)" != "$stamp" ] ||
	! verify_config 2>/dev/null; then
	kmake tinyconfig >/dev/null
	KCONFIG_CONFIG="$out/.config" "$src/scripts/kconfig/merge_config.sh" \
		-m -O "$out" "$out/.config" "${frags[@]}" >/dev/null
	kmake olddefconfig >/dev/null
	verify_config
	echo "$stamp" >"$out/.fragments"
fi
read -ra targets <<<"${KERNEL_TARGETS:-bzImage}"
kmake "${targets[@]}"
for t in "${targets[@]}"; do
	[ "$t" != bzImage ] || t=arch/x86/boot/bzImage
	ls -ld "$out/$t"
done
