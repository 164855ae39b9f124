#!/usr/bin/env bash
# Build perf from the kernel tree into build/perf (incremental, ccache).
# perf builds with -Werror, so a new warning fails the build.
#
# The optional libraries are pinned, not detected: perf links what it
# finds, and on a machine with llvm-config it loaded libLLVM (355k of its
# 613k relocations at every start) and took about 20 s to start in the
# guest. The build must then show exactly the features listed in
# check/perf-features.txt, so no machine builds a different perf.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

src=${1:-$SRC}
out=${PERF_OUT:-$BUILD/perf}
# Kept: libelf and libdw (symbols, DWARF), libtraceevent (tracepoints),
# zlib/lzma/zstd (compressed data and modules), libcap, aio, and perf's
# own static libbpf. Off: what no test here uses and what costs start-up.
PERF_FEATURES=(
	NO_JEVENTS=1 NO_LIBLLVM=1 NO_LIBPYTHON=1 NO_LIBPERL=1 BUILD_BPF_SKEL=0
	NO_SLANG=1 NO_GTK2=1 NO_LIBBABELTRACE=1 NO_CAPSTONE=1 NO_LIBPFM4=1
	NO_LIBDEBUGINFOD=1 NO_SDT=1 NO_JVMTI=1 NO_LIBUNWIND=1 NO_LIBNUMA=1
	NO_LIBCRYPTO=1 NO_LIBAUDIT=1
	# perf test runs tests/attr.py with the system Python, built in
	PYTHON_WORD=python3
)
mkdir -p "$out"
# perf's libraries (libperf, libapi, libsubcmd, libsymbol) are built
# without fixdep in an O= build: their objects' dependencies name
# "evsel.o", not the object's path, so a changed header rebuilds nothing.
# A patch that adds a field to libperf's struct perf_evsel then left
# evsel.o writing ->idx at the old offset. Start a library afresh when
# any of its files is newer than its archive (ccache makes that cheap).
for lib in perf api subcmd symbol; do
	archive=$out/lib$lib/lib$lib.a
	if [ -e "$archive" ] &&
	   [ -n "$(find "$src/tools/lib/$lib" -newer "$archive" -print -quit)" ]; then
		rm -rf "${out:?}/lib$lib"
	fi
done
make -C "$src/tools/perf" O="$out" -j"$JOBS" CC="$ROOT/scripts/ccache-gcc.sh" \
	"${PERF_FEATURES[@]}"
"$out/perf" version --build-options | tee "$out/features.txt"
# Only the feature lines ("  name: [ on  ]  # HAVE_..."), whatever the version.
sed -n 's/^ *\([a-z0-9_-]*\): *\[ *\(on\|OFF\) *\].*/\1 \2/p' "$out/features.txt" |
	diff -u <(grep -v '^#' "$ROOT/check/perf-features.txt") - ||
	die "perf was built with other features than check/perf-features.txt lists"
