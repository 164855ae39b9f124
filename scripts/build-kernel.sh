#!/usr/bin/env bash
# build-kernel.sh vm|test [SRC_DIR]: build bzImage from tinyconfig plus the
# flavour's fragments into build/kernel-<flavour> (ccache, incremental).
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

flavour=${1:?usage: build-kernel.sh vm|test [source dir]}
src=${2:-$SRC}
out=${KERNEL_OUT:-$BUILD/kernel-$flavour}
case "$flavour" in
vm) frags=("$ROOT/configs/vm.config") ;;
test) frags=("$ROOT/configs/vm.config" "$ROOT/configs/debug.config") ;;
*) die "unknown kernel flavour '$flavour'" ;;
esac

kmake() {
	make -C "$src" O="$out" -j"$JOBS" CC="ccache gcc" HOSTCC="ccache gcc" "$@"
}

# Every option a fragment asks for must be in the result: a dependency that
# Kconfig silently dropped would otherwise make the kernel miss a feature.
verify_config() {
	local frag line opt val got bad=0
	for frag in "${frags[@]}"; do
		while IFS= read -r line; do
			case "$line" in CONFIG_*=*) ;; *) continue ;; esac
			opt=${line%%=*} val=${line#*=}
			got=$(grep -E "^$opt=" "$out/.config" | cut -d= -f2- || true)
			if [ "$val" = n ]; then
				[ -z "$got" ] && continue
			elif [ "$got" = "$val" ]; then
				continue
			fi
			echo "config: $opt wanted '$val', got '${got:-not set}' (${frag##*/})" >&2
			bad=1
		done <"$frag"
	done
	return "$bad"
}

mkdir -p "$out"
stamp=$(cat "${frags[@]}" | sha256sum | cut -d' ' -f1)
if [ ! -f "$out/.config" ] || [ "$(cat "$out/.fragments" 2>/dev/null)" != "$stamp" ]; then
	kmake tinyconfig >/dev/null
	KCONFIG_CONFIG="$out/.config" "$src/scripts/kconfig/merge_config.sh" \
		-m -O "$out" "$out/.config" "${frags[@]}" >/dev/null
	kmake olddefconfig >/dev/null
	verify_config
	echo "$stamp" >"$out/.fragments"
fi
kmake bzImage
ls -l "$out/arch/x86/boot/bzImage"
