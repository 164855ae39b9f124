#!/usr/bin/env bash
# The test command: set up, prove the series applies and passes
# checkpatch, build the tip where the bisect does not (the debug and i386
# kernels, the i386 selftests), build the base and then after every patch
# (bisect: the series' kernel code, the release kernel at each posting's
# last kernel patch, perf, selftests, in the folders the tip shares),
# finish the tip there (release kernel, perf, selftests), test the tooling
# (its VM runs the debug kernel), and run the tests of check/vm-tests.list
# in VMs, two side by side. Ends with "N passed, N failed, N skipped",
# writes the results as KTAP too, and exits non-zero if anything failed.
#
# A deadline (CHECK_BUDGET seconds, 85 minutes by default: CI stops at 90)
# bounds the run: the builds the bisect does not share run first, the
# bisect builds stop early enough to leave the tip builds, the tooling
# tests and the VM stage their time (what they take here, scaled by how
# much slower this machine's static stage was; before that, bisect states
# between postings' ends are skipped, each named), the VMs get what is
# left, and whatever else did not run is counted as failed and named. Ctrl-C or
# SIGTERM stops everything it started (builds, QEMU) and puts build/linux
# back on its branch.
#
# Usage: check/run.sh [static|builds|bisect|tip|tooling|vm ...]: only those
# stages, after set-up (for development; the test command runs them all).
set -euo pipefail
# shellcheck source=check/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# shellcheck source=check/bisect.sh
. "$ROOT/check/bisect.sh"
# shellcheck source=check/vm.sh
. "$ROOT/check/vm.sh"

# Seconds the stages after the bisect take here: the tip builds (after a
# whole bisect they are incremental; a bisect cut short leaves them more),
# the tooling tests and the VM stage. The bisect keeps them free, scaled by
# how much slower than here this machine ran checkpatch (CHECKPATCH_MS a
# patch here, the same work on every machine), never by less than 1, plus
# a quarter; bisect builds that would eat into that are not run (and fail
# the run).
TIP_STAGE_NEED=${TIP_STAGE_NEED:-90}
TOOLING_STAGE_NEED=${TOOLING_STAGE_NEED:-240}
VM_STAGE_NEED=${VM_STAGE_NEED:-840}
CHECKPATCH_MS=1070
CHECKPATCH_TIMES=$CHECK_DIR/checkpatch-ms

# later_stages_reserve: the bisect's reserve, in seconds, and how much
# slower than here this machine is, in percent. With no checkpatch times
# to go by (a run of chosen stages), 2.5 times the need.
later_stages_reserve() {
	local need=$((TIP_STAGE_NEED + TOOLING_STAGE_NEED + VM_STAGE_NEED))
	local ms n pct=200 how="no checkpatch times"
	ms=$(awk '{ s += $1 } END { print s + 0 }' "$CHECKPATCH_TIMES" 2>/dev/null || echo 0)
	n=$(wc -l <"$CHECKPATCH_TIMES" 2>/dev/null || echo 0)
	if [ "$n" -gt 0 ] && [ "$ms" -gt 0 ]; then
		pct=$((ms * 100 / (n * CHECKPATCH_MS)))
		[ "$pct" -ge 100 ] || pct=100
		how="checkpatch $((ms / n)) ms a patch (${CHECKPATCH_MS} here)"
	fi
	echo "    this machine: $how, ${pct}%;" \
		"reserve for the stages after the bisect $(fmt_secs $((need * pct * 5 / 400)))" >&2
	echo "$((need * pct * 5 / 400)) $pct"
}

# The stages in the order they run: what an interrupted or aborted run
# names as not run.
STAGE_ORDER=(setup static builds bisect tip tooling vm)

# not_run: the wanted stages after the one that was running.
not_run() {
	local s after='' names=''
	for s in "${STAGE_ORDER[@]}"; do
		if [ -n "$after" ] && wanted "$s"; then names+=" $s"; fi
		[ "$s" != "$stage_name" ] || after=1
	done
	echo "${names# }"
}

# stop_run WHY: end what the run started, put the tree back on its branch,
# count the rest as failed, by stage, and print the summary.
stop_run() {
	local rest
	rest=$(not_run)
	kill_tree_below $$
	wait 2>/dev/null || true
	if [ -z "$(kgit branch --show-current 2>/dev/null)" ]; then
		kgit checkout -q "$BRANCH" 2>/dev/null || true
	fi
	[ -z "$tip_pending" ] || drop_untipped
	record FAIL "$1 in stage ${stage_name:-?}${rest:+ (not run: $rest)}"
	summary "$1" || true
}

# on_signal STATUS: 130 for SIGINT, 143 for SIGTERM.
on_signal() {
	trap - INT TERM EXIT
	echo
	echo "=== interrupted: stopping every build and VM this run started"
	[ -n "$SUMMARY_DONE" ] || stop_run interrupted
	exit "$1"
}

# arm_traps: from here on, an interrupted or aborted run ends with its
# summary (check/tooling/run-abort.sh calls it as main does).
arm_traps() {
	trap 'on_signal 130' INT
	trap 'on_signal 143' TERM
	trap on_exit EXIT
}

# A command that fails outside a check (set -e) ends the run: it still
# ends with the summary, naming what did not run.
on_exit() {
	local rc=$?
	trap - INT TERM EXIT
	[ -z "$SUMMARY_DONE" ] || exit "$rc"
	echo
	echo "=== aborted (exit $rc): stopping every build and VM this run started"
	stop_run aborted
	exit $((rc ? rc : 1))
}

# Between the bisect's start and the tip builds, the release kernel and
# perf in their folders are of the base or of a patch before the tip:
# remove what would be booted or run, so nothing takes them for the tip.
tip_pending=''
drop_untipped() {
	rm -f "$BUILD/kernel-release/arch/x86/boot/bzImage" "$BUILD/perf/perf"
	echo "    the release kernel and perf were not rebuilt at the tip: removed"
}

# The series applies to the base, patch by patch, on a scratch index: no
# checkout, so it is quick and leaves the tree alone.
apply_series_check() {
	local idx p
	idx=$(mktemp)
	GIT_INDEX_FILE=$idx kgit read-tree "$BASE_TAG"
	while read -r p; do
		GIT_INDEX_FILE=$idx kgit apply --cached "$p" ||
			{ echo "does not apply: ${p##*/}"; rm -f "$idx"; return 1; }
		echo "applies: ${p##*/}"
	done < <(series_patches)
	rm -f "$idx"
}

checkpatch() {
	local p=$1 ignore
	ignore=$(awk -v p="${p#"$PATCHES"/}" '!/^#/ && $1 == p { printf "%s,", $2 }' \
		"$ROOT/check/checkpatch-accepted.txt")
	# spdxcheck.py needs the ply and git modules that setup installs for
	# /usr/bin/python3, not a python3 an earlier PATH entry (pyenv) offers.
	local t0=$EPOCHREALTIME rc=0
	(cd "$SRC" && PATH="/usr/bin:$PATH" scripts/checkpatch.pl --strict --show-types \
		${ignore:+--ignore "$ignore"} "$p") || rc=$?
	# Its own time, in ms, for the bisect's reserve (step's ticker
	# rounds to 2 s).
	echo $(((${EPOCHREALTIME/./} - ${t0/./}) / 1000)) >>"$CHECKPATCH_TIMES"
	return "$rc"
}

# checkpatch, one patch a core: each run is single-threaded (and times
# itself alone on its core, for the bisect's reserve).
# Named by number too, as the bisect's steps are: two patches may share a
# subject (their files then differ by a suffix only).
checkpatch_series() {
	local p n=0 total
	total=$(series_patches | wc -l)
	while read -r p; do
		n=$((n + 1))
		[ "$(jobs -rp | wc -l)" -lt "$JOBS" ] || wait -n
		check "$(printf 'checkpatch %02d/%02d' "$n" "$total") ${p#"$PATCHES"/}" checkpatch "$p" &
	done < <(series_patches)
	wait
}

# The tip where the bisect does not build it (the debug kernel: the
# bisect builds only two folders of it; the i386 kernel and selftests): before
# the bisect, so that only the incremental tip builds below are left after it.
# One after the other: side by side, two cold kernels took 8:29 against
# 8:22 (both cores are busy all the time).
own_builds() {
	check kernel-debug "$ROOT/scripts/build-kernel.sh" debug
	check kernel-i386 "$ROOT/scripts/build-kernel.sh" i386
	check selftests-i386 "$ROOT/scripts/build-selftests.sh" i386
	check libperf-asan "$ROOT/check/libperf-asan.sh"
}

# The tip in the folders the bisect shares (build/kernel-release,
# build/perf, build/kselftest), which it leaves one patch short of the tip.
# Not the debug kernel: it was built at the tip before the bisect, which
# only built folders in its folder, never the image.
tip_builds() {
	check kernel-release "$ROOT/scripts/build-kernel.sh" release
	check perf-buffer-layout "$ROOT/check/perf-buffer-layout.sh"
	check perf "$ROOT/scripts/build-perf.sh"
	check selftests "$ROOT/scripts/build-selftests.sh"
}

# The tooling's own tests. The VM runner's test waits most of its time on
# an idle guest (the hang case): it runs beside the others, not before them.
tooling_tests() {
	local t vm_runner=$ROOT/check/tooling/vm-runner.sh
	check tooling/vm-runner "$vm_runner" &
	for t in "$ROOT"/check/tooling/*.sh; do
		[ "$t" = "$vm_runner" ] ||
			check "tooling/$(basename "$t" .sh)" "$t"
	done
	wait
}

only=()
# wanted STAGE: the stage was asked for ("check/run.sh vm" runs the VM
# stage on what is built; no argument runs them all).
wanted() {
	[ ${#only[@]} -eq 0 ] || [[ " ${only[*]} " == *" $1 "* ]]
}

main() {
	only=("$@")
	local s reserve pct
	for s in "${only[@]}"; do
		case "$s" in static | builds | bisect | tip | tooling | vm) ;;
		*) die "no stage '$s': static, builds, bisect, tip, tooling or vm" ;;
		esac
	done
	require_root
	mkdir -p "$CHECK_DIR"
	: >"$RESULTS"
	: >"$STAGES"
	arm_traps

	stage setup
	if ! step setup "$ROOT/scripts/setup.sh"; then
		record FAIL setup
		summary || exit 1
	fi
	say_base
	if ! step tree "$ROOT/scripts/tree.sh"; then
		record FAIL "tree (tests run on patches/: export or discard tree work)"
		summary || exit 1
	fi
	rm -f "$CHECKPATCH_TIMES"
	if wanted static; then
		stage static
		check apply-series apply_series_check
		check rb-tail-harness "$ROOT/check/rb-tail-harness.sh"
		checkpatch_series
	fi
	if wanted builds; then
		stage builds
		own_builds
	fi
	if wanted bisect; then
		stage bisect
		tip_pending=1
		read -r reserve pct < <(later_stages_reserve)
		bisect_builds "$reserve" "$pct"
	fi
	if wanted tip; then
		stage tip
		tip_builds
		tip_pending=''
	fi
	[ -z "$tip_pending" ] || drop_untipped
	if wanted tooling; then
		stage tooling
		tooling_tests
	fi
	if wanted vm; then
		stage vm
		vm_stage
	fi
	stage ''
	summary
}

# Sourced (by check/tooling/run-abort.sh), it only defines.
[ "${BASH_SOURCE[0]}" != "$0" ] || main "$@"
