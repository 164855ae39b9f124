#!/usr/bin/env bash
# Install what the build, the VM and the tests need, and the base source
# package at the version in base.conf (another 6.12.y only with a warning).
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"
require_root

# Kernel build, perf (the libraries of the features scripts/build-perf.sh
# pins on), selftests (rsync for kselftest-install), VM, checks.
PKGS=(
	build-essential bc bison flex cpio kmod rsync ccache git
	libelf-dev libssl-dev python3
	libdw-dev libtraceevent-dev libzstd-dev liblzma-dev zlib1g-dev
	libcap-dev libiberty-dev pkg-config
	qemu-system-x86
	python3-ply python3-git shellcheck
	# the i386 guest: static -m32 selftests and init
	gcc-multilib
)
PKGS+=("$@")

# A package is missing unless installed (at the version, for NAME=VERSION).
missing=()
for p in "${PKGS[@]}"; do
	st=$(dpkg-query -W -f='${Status} ${Version}' "${p%%=*}" 2>/dev/null || true)
	case "$p" in
	*=*) [ "$st" = "install ok installed ${p#*=}" ] && continue ;;
	*) [ "${st% *}" = "install ok installed" ] && continue ;;
	esac
	missing+=("$p")
done

apt_updated=
apt_update() {
	[ -n "$apt_updated" ] && return
	apt-get update -q
	apt_updated=1
}

if [ ${#missing[@]} -gt 0 ]; then
	note "installing: ${missing[*]}"
	apt_update
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends "${missing[@]}"
fi

installed=$(dpkg-query -W -f='${Version}' "$BASE_PACKAGE" 2>/dev/null || true)
# The pinned base, or, once apt drops it, the newest 6.12.y it offers
# (unless one is installed already).
if [ "$installed" != "$BASE_VERSION" ]; then
	apt_update
	pick=$(apt_pick "$BASE_PACKAGE" "$BASE_VERSION")
	if [ "$pick" != "$BASE_PACKAGE" ] || [ -z "$installed" ]; then
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
			--allow-downgrades "$pick"
	fi
	installed=$(dpkg-query -W -f='${Version}' "$BASE_PACKAGE")
fi

# Say which base is in use, and keep it beside the builds: when apt no
# longer serves the pinned version, the run goes on with the newest 6.12
# (apply-series then shows whether the series still applies), and the
# version and checksum actually used are on record.
sum=$(sha256sum "$BASE_TARBALL" | cut -d' ' -f1)
mkdir -p "$BUILD"
printf '%s %s %s\n' "$BASE_PACKAGE" "$installed" "$sum" >"$BUILD/base-used"
if [ "$installed" = "$BASE_VERSION" ]; then
	[ "$sum" = "$BASE_SHA256" ] ||
		die "$BASE_TARBALL does not match the recorded SHA256 in base.conf"
	note "base: $BASE_PACKAGE $installed (checksum verified)"
else
	echo "WARNING: testing on $BASE_PACKAGE $installed (sha256 $sum)," \
		"not the pinned $BASE_VERSION, which apt no longer offers." >&2
fi
