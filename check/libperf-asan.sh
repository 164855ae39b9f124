#!/usr/bin/env bash
# libperf-asan.sh: libperf's perf_mmap_page__copy() unit test, built with
# AddressSanitizer and UBSan and run on the host: it feeds the function
# synthetic user pages (old kernel, backward, wrapped at 2^32, garbage) and
# any byte read or written outside the mapping or the caller's buffer
# fails it. Only that test: libperf's others open events, and its cpumap
# test trips over its own reference counting under ASan.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

out=$BUILD/libperf-asan/
mkdir -p "$out"
make -C "$SRC/tools/lib/perf" -s OUTPUT="$out" \
	CC="gcc -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
	"${out}tests-static"
"${out}tests-static" mmap_copy
