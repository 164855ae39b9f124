#!/usr/bin/env bash
# What the bisect builds after a patch (state_builds in check/bisect.sh):
# a scratch git tree with one commit per kind of change, each checked
# against the builds it must start, and only those.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# shellcheck source=check/lib.sh
BUILD_DIR=$tmp/build . "$root/check/lib.sh"
# shellcheck source=check/bisect.sh
. "$root/check/bisect.sh"

mkdir -p "$SRC"
git -C "$SRC" init -q
git -C "$SRC" -c user.name=t -c user.email=t@t commit -q --allow-empty -m base

# change PATH EXPECTED: a commit that changes PATH must build EXPECTED.
n=0
change() {
	local path=$1 want=$2 got
	mkdir -p "$SRC/$(dirname "$path")"
	echo "$n" >>"$SRC/$path"
	git -C "$SRC" add -A
	git -C "$SRC" -c user.name=t -c user.email=t@t commit -q -m "$path"
	got=$(state_builds HEAD | tr '\n' ' ')
	[ "${got% }" = "$want" ] || fail "a change of $path builds '${got% }', not '$want'"
	n=$((n + 1))
}

change Documentation/admin-guide/perf.rst ''
change MAINTAINERS ''
change tools/perf/builtin-ctl.c perf
change tools/perf/tests/shell/persistent_sessions.sh perf-scripts
change tools/perf/Documentation/perf-ctl.txt ''
change tools/perf/tests/shell/lib/getppid_counting.sh perf-scripts
change tools/perf/tests/tail-reader.c perf
change tools/perf/tests/shell/coresight/Makefile perf
change tools/lib/perf/mmap.c 'perf selftests'
change tools/include/uapi/linux/perf_event.h 'perf selftests'
change tools/testing/selftests/perf_events/persistent.c selftests
change tools/testing/selftests/kselftest_harness.h selftests
change kernel/events/ring_buffer.c kernel
change arch/x86/events/intel/ds.c kernel
change kernel/trace/trace_event_perf.c kernel
change include/uapi/linux/perf_event.h 'kernel selftests'
change include/linux/perf_event.h kernel

# The debug kernel's folder builds kernel/events/ after every kernel
# patch, and the series' objects elsewhere where the patch changes their
# source or a header; an object whose source does not exist yet is left.
objs=(arch/x86/events/intel/ds.o kernel/trace/trace_event_perf.o kernel/bpf/later.o)
debug_of() {
	local got
	got=$(debug_targets HEAD "${objs[@]}")
	[ "$got" = "$2" ] || fail "after a change of $1 the debug folder builds '$got', not '$2'"
}
debug_of include/linux/perf_event.h \
	'kernel/events/ arch/x86/events/intel/ds.o kernel/trace/trace_event_perf.o'
change arch/x86/events/intel/ds.c kernel
debug_of arch/x86/events/intel/ds.c 'kernel/events/ arch/x86/events/intel/ds.o'
change kernel/events/core.c kernel
debug_of kernel/events/core.c kernel/events/
change arch/x86/include/asm/perf_event.h kernel
debug_of arch/x86/include/asm/perf_event.h \
	'kernel/events/ arch/x86/events/intel/ds.o kernel/trace/trace_event_perf.o'

# The release kernel is built at the last kernel patch of each posting;
# the others name it. Without postings, at every kernel patch.
got=$(release_states <<'END' | tr '\n' ' '
01-a c1 kernel
02-b c2 perf
02-b c3 kernel perf
02-b c4 kernel selftests
02-b c5 perf
03-c c6 kernel
. c7 kernel
. c8 perf
. c9 kernel
END
)
[ "$got" = "c1 c1 c3 c4 c4 c4 c6 c6 c7 c7 c9 c9 " ] ||
	fail "release kernels built at: $got"

# Each state but the tip knows the last state of its posting (the tip's
# posting ends at the tip); without postings each state is its own.
got=$(posting_ends <<'END' | tr '\n' ' '
01-a c1
02-b c2
02-b c3
. c4
. c5
03-c c6
03-c c7
END
)
[ "$got" = "c1 c1 c2 c3 c3 c3 c4 c4 c5 c5 c6 c7 " ] ||
	fail "posting ends: $got"

# What the memory holds is always built; else, with less left than the
# reserve nothing is; with less than the reserve and the headroom only
# the must states are; with more, everything.
verdicts=''
for args in "99 100 50 free" "99 100 50 must" "99 100 50 other" \
	"120 100 50 must" "120 100 50 other" "150 100 50 other" "150 100 50 must"; do
	# shellcheck disable=SC2086 # four words
	verdicts+="$(state_verdict $args) "
done
[ "$verdicts" = "build refuse refuse build skip build build " ] ||
	fail "state verdicts: $verdicts"

# A shell test with a shellcheck warning fails its state, as perf's build
# would; a clean one passes.
mkdir -p "$SRC/tools/perf/tests/shell"
printf '#!/bin/bash\necho clean\n' >"$SRC/tools/perf/tests/shell/clean.sh"
chmod +x "$SRC/tools/perf/tests/shell/clean.sh"
git -C "$SRC" add -A
git -C "$SRC" -c user.name=t -c user.email=t@t commit -q -m "a clean test"
out=$(perf_scripts_check HEAD) || fail "a clean shell test failed: $out"
grep -qx "shellcheck: tests/shell/clean.sh" <<<"$out" || fail "clean.sh not checked: $out"
# shellcheck disable=SC2016 # the script's own $1
printf '#!/bin/bash\nrm -rf $1/*\n' >"$SRC/tools/perf/tests/shell/bad.sh"
chmod +x "$SRC/tools/perf/tests/shell/bad.sh"
git -C "$SRC" add -A
git -C "$SRC" -c user.name=t -c user.email=t@t commit -q -m "a bad test"
if out=$(perf_scripts_check HEAD 2>&1) || ! grep -q "bad.sh" <<<"$out"; then
	fail "a shellcheck warning in bad.sh passed: $out"
fi

# A build that passed is not run again for the same key; one that failed
# is; CHECK_REBUILD=1 runs it anyway.
BISECT_CACHE=$tmp/cache
RESULTS=$tmp/results
: >"$RESULTS"
cached_check k1 "a build" touch "$tmp/ran" >/dev/null
{ [ -f "$tmp/ran" ] && [ -f "$tmp/cache/k1" ]; } || fail "a first build did not run or was not remembered"
rm "$tmp/ran"
cached_check k1 "a build" touch "$tmp/ran" >"$tmp/out"
[ ! -f "$tmp/ran" ] || fail "a build with the same inputs ran again"
grep -q "not rebuilt: the same inputs built on" "$tmp/out" || fail "said: $(cat "$tmp/out")"
CHECK_REBUILD=1 cached_check k1 "a build" touch "$tmp/ran" >/dev/null
[ -f "$tmp/ran" ] || fail "CHECK_REBUILD=1 did not rebuild"
cached_check k2 "a failing build" false >/dev/null
cached_check k2 "a failing build" false >/dev/null
[ ! -f "$tmp/cache/k2" ] || fail "a failed build was remembered"
[ "$(cat "$RESULTS")" = "PASS a build
PASS a build (same inputs as a build that passed)
PASS a build
FAIL a failing build
FAIL a failing build" ] || fail "results: $(cat "$RESULTS")"
# The memory's inputs are the same from any clone (another BUILD_DIR, so
# another CCACHE_BASEDIR), and change with what make reads.
one=$(build_inputs)
other=$(CCACHE_BASEDIR=/elsewhere/build build_inputs)
[ "$one" = "$other" ] || fail "the build inputs depend on the clone's path"
[ "$(WERROR=0 build_inputs)" != "$one" ] || fail "WERROR=0 left the build inputs as they were"
# Which states are built is no input of a build; the shellcheck a state
# runs is.
state_verdict() { echo build; }
bisect_builds() { :; }
[ "$(build_inputs)" = "$one" ] || fail "a change of which states are built changed the build inputs"
perf_scripts_check() { shellcheck -S error "$@"; }
[ "$(build_inputs)" != "$one" ] || fail "another perf_scripts_check left the build inputs as they were"
two=$(build_inputs)
state_build() { :; }
[ "$(build_inputs)" != "$two" ] || fail "another state_build left the build inputs as they were"

echo "bisect-rule: $n kinds of change, each builds what it can break and nothing else; the release kernel at the last kernel patch of each posting; a passed build is remembered by its inputs, the same from any clone; a failed one is not"
