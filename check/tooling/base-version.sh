#!/usr/bin/env bash
# The archive drops old versions: with the pinned base (or Debian's config
# for the deb packages) no longer offered, set-up takes the newest that apt
# offers, warns, and the two commands say which base they run on. A fake
# apt-cache stands in for the archive.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# shellcheck source=scripts/lib.sh
BUILD_DIR=$tmp/build . "$root/scripts/lib.sh"

# offer VERSION...: what the fake archive serves of any package.
offer() {
	mkdir -p "$tmp/bin"
	{
		echo '#!/bin/sh'
		for v in "$@"; do
			echo "echo \"\$2 | $v | http://deb.debian.org/debian bookworm/main amd64 Packages\""
		done
	} >"$tmp/bin/apt-cache"
	chmod +x "$tmp/bin/apt-cache"
}
PATH=$tmp/bin:$PATH

offer 6.12.120-1~deb12u1 "$BASE_VERSION"
[ "$(apt_pick "$BASE_PACKAGE" "$BASE_VERSION" 2>"$tmp/err")" = "$BASE_PACKAGE=$BASE_VERSION" ] ||
	fail "the pinned version offered, but not picked"
[ ! -s "$tmp/err" ] || fail "a warning for the pinned version: $(cat "$tmp/err")"

offer 6.12.120-1~deb12u1 6.12.121-1~deb12u1
[ "$(apt_pick linux-config-6.12 "$BASE_VERSION" 2>"$tmp/err")" = linux-config-6.12 ] ||
	fail "the pinned version gone, but apt was still asked for it"
grep -q "WARNING: apt no longer offers linux-config-6.12 $BASE_VERSION" "$tmp/err" ||
	fail "no warning: $(cat "$tmp/err")"

mkdir -p "$BUILD"
echo "$BASE_PACKAGE $BASE_VERSION $BASE_SHA256" >"$BUILD/base-used"
say_base | grep -q "base: $BASE_PACKAGE $BASE_VERSION, as pinned" || fail "say_base: $(say_base)"
echo "$BASE_PACKAGE 6.12.121-1~deb12u1 0123" >"$BUILD/base-used"
say_base | grep -q "^WARNING: base: $BASE_PACKAGE 6.12.121-1~deb12u1 .*not $BASE_VERSION" ||
	fail "say_base on another version: $(say_base)"
echo "base-version: the pinned version when offered; else the newest, with a warning the commands show"
