#!/usr/bin/env bash
# Debian packages of the patched kernel for real machines (make bindeb-pkg).
# The config is Debian's own amd64 config for the same package version
# (linux-config-6.12), with module signing by Debian's key turned off (the
# key is not public) and debug info off (it triples the build time).
# Takes hours on 2 cores; the .deb files land in build/.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

# Debian's config for the version of the base in use; apt drops old
# versions, so when that one is gone, the newest 6.12 config (with a
# warning: Kconfig fills in what differs).
"$ROOT/scripts/setup.sh" dwarves debhelper
base=$(dpkg-query -W -f='${Version}' "$BASE_PACKAGE")
config_pkg=$(apt_pick linux-config-6.12 "$base")
"$ROOT/scripts/setup.sh" "$config_pkg"
"$ROOT/scripts/tree.sh"
out=$BUILD/kernel-deb
mkdir -p "$out"
xzcat /usr/src/linux-config-6.12/config.amd64_none_amd64.xz >"$out/.config"
"$SRC/scripts/config" --file "$out/.config" \
	--set-str SYSTEM_TRUSTED_KEYS "" \
	--set-str MODULE_SIG_KEY "certs/signing_key.pem" \
	--disable DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT --disable DEBUG_INFO_DWARF4 \
	--disable DEBUG_INFO_DWARF5 \
	--disable DEBUG_INFO_BTF --enable DEBUG_INFO_NONE
make -C "$SRC" O="$out" olddefconfig
[ "${DEB_CONFIG_ONLY:-0}" = 1 ] && exit 0
make -C "$SRC" O="$out" -j"$JOBS" CC="$ROOT/scripts/ccache-gcc.sh" \
	LOCALVERSION=-flightrec KDEB_PKGVERSION="$base+flightrec1" \
	bindeb-pkg
ls -l "$BUILD"/*.deb
