#!/usr/bin/env bash
# scripts/deb.sh derives a working config from Debian's own for the
# packages (the bindeb-pkg build itself takes hours and is not run here).
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
config=${BUILD_DIR:-$root/build}/kernel-deb/.config
fail() { echo "FAIL: $*"; exit 1; }

DEB_CONFIG_ONLY=1 "$root/scripts/deb.sh"
for want in CONFIG_PERF_EVENTS=y CONFIG_MODULES=y CONFIG_DEBUG_INFO_NONE=y \
	'CONFIG_SYSTEM_TRUSTED_KEYS=""' CONFIG_FTRACE_SYSCALLS=y; do
	grep -qx "$want" "$config" || fail "$want missing from $config"
done
echo "deb config: Debian's config, signing key and debug info off"
