#!/usr/bin/env bash
# build-selftests.sh [x86_64|i386] [SRC_DIR]: build and install the
# perf_events kselftests from the kernel tree into build/kselftest
# (run_kselftest.sh and the test binaries), or for the i386 guest into
# build/kselftest-i386: static -m32 binaries and their init (guest/init32.c),
# since that guest has no 32-bit user space of its own, and libperf's
# tests as perf_events/libperf_tests.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

arch=${1:-x86_64}
src=${2:-$SRC}
case "$arch" in
x86_64) suffix='' cc="ccache gcc" extra=() ;;
i386) suffix=-i386 cc="ccache gcc -m32" extra=(LDFLAGS=-static "LD=ld -m elf_i386") ;;
*) die "usage: build-selftests.sh [x86_64|i386] [source dir]" ;;
esac
out=$BUILD/kselftest$suffix-build
install=${KSELFTEST_OUT:-$BUILD/kselftest$suffix}
mkdir -p "$out"
make -C "$src" O="$out" ARCH="$arch" -j"$JOBS" headers >/dev/null
make -C "$src/tools/testing/selftests" O="$out" -j"$JOBS" \
	ARCH="$arch" CC="$cc" "${extra[@]}" TARGETS=perf_events \
	KHDR_INCLUDES="-isystem $out/usr/include" \
	INSTALL_PATH="$install" install
if [ "$arch" = i386 ]; then
	gcc -m32 -static -O2 -Wall -Werror -o "$install/init32" \
		"$ROOT/guest/init32.c"
	# libperf's own tests, perf_mmap_page__copy() among them, -m32.
	mkdir -p "$out/libperf-tests"
	make -C "$src/tools/lib/perf" -s OUTPUT="$out/libperf-tests/" \
		CC="gcc -m32 -static" LD="ld -m elf_i386" \
		"$out/libperf-tests/tests-static"
	cp "$out/libperf-tests/tests-static" "$install/perf_events/libperf_tests"
fi
cat "$install/kselftest-list.txt"
