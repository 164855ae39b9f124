#!/usr/bin/env bash
# Build and install the perf_events kselftests from the kernel tree into
# build/kselftest (run_kselftest.sh and the test binaries).
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

src=${1:-$SRC}
out=$BUILD/kselftest-build
install=${KSELFTEST_OUT:-$BUILD/kselftest}
mkdir -p "$out"
make -C "$src" O="$out" -j"$JOBS" headers >/dev/null
make -C "$src/tools/testing/selftests" O="$out" -j"$JOBS" \
	CC="ccache gcc" TARGETS=perf_events \
	KHDR_INCLUDES="-isystem $out/usr/include" \
	INSTALL_PATH="$install" install
cat "$install/kselftest-list.txt"
