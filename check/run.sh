#!/usr/bin/env bash
# The test command: set up, prove the series applies and passes
# checkpatch, build what the bisect does not share (release, i386 and base
# kernels, the base's perf, i386 selftests), build after every patch
# (bisect), build the tip in the folders the bisect shares (debug kernel,
# perf, selftests), test the tooling (its VM runs the debug kernel), and
# run the tests of check/vm-tests.list in VMs, two side by side. Ends with
# "N passed, N failed, N skipped", writes the results as KTAP too, and
# exits non-zero if anything failed.
#
# A deadline (CHECK_BUDGET seconds, 85 minutes by default: CI stops at 90)
# bounds the run: the builds the bisect does not share run first, the
# bisect builds stop early enough to leave the tip builds, the tooling
# tests and the VM stage their time, the VMs get what is left, and
# whatever did not run is counted as failed and named. Ctrl-C or SIGTERM stops everything it
# started (builds, QEMU) and puts build/linux back on its branch.
#
# Usage: check/run.sh [static|builds|bisect|tip|tooling|vm ...]: only those
# stages, after set-up (for development; the test command runs them all).
set -euo pipefail
# shellcheck source=check/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=check/bisect.sh
. "$ROOT/check/bisect.sh"
# shellcheck source=check/vm.sh
. "$ROOT/check/vm.sh"

# Seconds the stages after the bisect need on a slow machine (about twice
# what they take here, see the README): the tip builds (incremental: the bisect leaves the
# shared folders one patch short of the tip), the tooling tests and the
# VM stage. Bisect builds that would eat into them are not run (and fail
# the run).
TIP_STAGE_NEED=${TIP_STAGE_NEED:-420}
TOOLING_STAGE_NEED=${TOOLING_STAGE_NEED:-420}
VM_STAGE_NEED=${VM_STAGE_NEED:-2100}

on_signal() {
	trap - INT TERM
	echo
	echo "=== interrupted: stopping every build and VM this run started"
	kill_tree_below $$
	wait 2>/dev/null || true
	if [ -z "$(kgit branch --show-current 2>/dev/null)" ]; then
		kgit checkout -q "$BRANCH" 2>/dev/null || true
	fi
	record FAIL "interrupted (the rest did not run)"
	summary interrupted || true
	exit 130
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
	ignore=$(awk -v p="${p##*/}" '!/^#/ && $1 == p { printf "%s,", $2 }' \
		"$ROOT/check/checkpatch-accepted.txt")
	# spdxcheck.py needs the ply and git modules that setup installs for
	# /usr/bin/python3, not a python3 an earlier PATH entry (pyenv) offers.
	(cd "$SRC" && PATH="/usr/bin:$PATH" scripts/checkpatch.pl --strict --show-types \
		${ignore:+--ignore "$ignore"} "$p")
}

# The builds in folders the bisect does not use: before the bisect, so
# that only the tip builds below are left after it.
own_builds() {
	check kernel-release "$ROOT/scripts/build-kernel.sh" release
	check kernel-i386 "$ROOT/scripts/build-kernel.sh" i386
	check kernel-base "$ROOT/scripts/build-base-kernel.sh"
	# The base's own perf, which guest/perf-vs-base.sh compares with ours.
	check perf-base env PERF_OUT="$BUILD/perf-base" \
		"$ROOT/scripts/build-perf.sh" "$BUILD/linux-base"
	check selftests-i386 "$ROOT/scripts/build-selftests.sh" i386
	check libperf-asan "$ROOT/check/libperf-asan.sh"
}

# The tip in the folders the bisect shares (build/kernel-debug, build/perf,
# build/kselftest), which it leaves one patch short of the tip.
tip_builds() {
	check kernel-debug "$ROOT/scripts/build-kernel.sh" debug
	check perf-buffer-layout "$ROOT/check/perf-buffer-layout.sh"
	check perf "$ROOT/scripts/build-perf.sh"
	check selftests "$ROOT/scripts/build-selftests.sh"
}

# wanted STAGE: the stage was asked for ("check/run.sh vm" runs the VM
# stage on what is built; no argument runs them all).
wanted() {
	[ ${#only[@]} -eq 0 ] || [[ " ${only[*]} " == *" $1 "* ]]
}

main() {
	only=("$@")
	local s
	for s in "${only[@]}"; do
		case "$s" in static | builds | bisect | tip | tooling | vm) ;;
		*) die "no stage '$s': static, builds, bisect, tip, tooling or vm" ;;
		esac
	done
	require_root
	mkdir -p "$CHECK_DIR"
	: >"$RESULTS"
	: >"$STAGES"
	trap on_signal INT TERM

	stage setup
	if ! step setup "$ROOT/scripts/setup.sh"; then
		record FAIL setup
		summary || exit 1
	fi
	if ! step tree "$ROOT/scripts/tree.sh"; then
		record FAIL "tree (tests run on patches/: export or discard tree work)"
		summary || exit 1
	fi
	if wanted static; then
		stage static
		check apply-series apply_series_check
		local p
		while read -r p; do
			check "checkpatch ${p##*/}" checkpatch "$p"
		done < <(series_patches)
	fi
	if wanted builds; then
		stage builds
		own_builds
	fi
	if wanted bisect; then
		stage bisect
		bisect_builds $((TIP_STAGE_NEED + TOOLING_STAGE_NEED + VM_STAGE_NEED))
	fi
	if wanted tip; then
		stage tip
		tip_builds
	fi
	if wanted tooling; then
		stage tooling
		for t in "$ROOT"/check/tooling/*.sh; do
			check "tooling/$(basename "$t" .sh)" "$t"
		done
	fi
	if wanted vm; then
		stage vm
		vm_stage
	fi
	stage ''
	summary
}

main "$@"
