#!/usr/bin/env bash
# Build perf from the kernel tree into build/perf (incremental, ccache).
# perf builds with -Werror, so a new warning fails the build.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

src=${1:-$SRC}
out=${PERF_OUT:-$BUILD/perf}
mkdir -p "$out"
make -C "$src/tools/perf" O="$out" -j"$JOBS" CC="ccache gcc" \
	NO_JEVENTS=1
"$out/perf" version --build-options
