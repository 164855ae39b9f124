#!/usr/bin/env bash
# The test command: set up, prove the series (applies, checkpatch, builds
# after every patch, perf builds), run the kselftests and perf tests in
# the VM on the debug kernel, and test the tooling itself.  Ends with
# "N passed, N failed[, N skipped]" and exits non-zero if anything failed.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

RESULTS=$BUILD/check/results
mkdir -p "$BUILD/check"
: >"$RESULTS"
t0=$(date +%s)

record() { echo "$*" >>"$RESULTS"; }

# check NAME CMD...: one check, run as a step (timed, logged).
check() {
	local name=$1
	shift
	if step "$name" "$@"; then record PASS "$name"; else record FAIL "$name"; fi
}

summary() {
	local pass xfail fail skip
	pass=$(grep -c '^PASS ' "$RESULTS" || true)
	xfail=$(grep -c '^XFAIL ' "$RESULTS" || true)
	fail=$(grep -c '^FAIL ' "$RESULTS" || true)
	skip=$(grep -c '^SKIP ' "$RESULTS" || true)
	echo
	echo "=== results ($(fmt_secs $(($(date +%s) - t0))), all in $RESULTS)"
	grep -E '^(FAIL|SKIP|XFAIL) ' "$RESULTS" | sed 's/^/  /' || true
	if [ "$xfail" -gt 0 ]; then
		echo "  ($xfail expected failures of the base under TCG, counted as" \
			"passed: tests/expected-results.txt)"
	fi
	echo "$((pass + xfail)) passed, $fail failed${skip:+, $skip skipped}"
	[ "$fail" -eq 0 ]
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
		"$ROOT/tests/checkpatch-accepted.txt")
	(cd "$SRC" && scripts/checkpatch.pl --strict --show-types \
		${ignore:+--ignore "$ignore"} "$p")
}

# Build the test kernel at every commit but the tip (built next anyway),
# in the same output folder: each build is incremental. perf too, with
# -Werror, at every commit that touches what perf is built from.
bisect_builds() {
	local c commits subject
	mapfile -t commits < <(kgit rev-list --reverse "$BASE_TAG..$BRANCH")
	for c in "${commits[@]:0:${#commits[@]}-1}"; do
		kgit checkout -q --detach "$c"
		subject=$(kgit log -1 --format=%s "$c")
		check "bisect-build $subject" "$ROOT/scripts/build-kernel.sh" test
		if kgit diff --quiet "$c^" "$c" -- tools/perf tools/lib tools/include; then
			continue
		fi
		check "bisect-perf $subject" \
			env PERF_OUT="$BUILD/perf-bisect" "$ROOT/scripts/build-perf.sh"
	done
	kgit checkout -q "$BRANCH"
}

vm_tests() {
	local rundir=$BUILD/check/vm-tests
	if ! step vm-tests "$ROOT/scripts/vm-run.sh" -k test -o "$rundir" \
		-t "${VM_TIMEOUT:-3000}" -- bash "$ROOT/tests/vm/run-tests.sh"; then
		record FAIL "vm-tests (the VM run failed: see $LOGS/vm-tests.log)"
	fi
	"$ROOT/scripts/classify-results.sh" "$rundir" >>"$RESULTS"
}

main() {
	if ! step setup "$ROOT/scripts/setup.sh"; then
		record FAIL setup
		summary || exit 1
	fi
	if ! step tree "$ROOT/scripts/tree.sh"; then
		record FAIL "tree (tests run on patches/: export or discard tree work)"
		summary || exit 1
	fi
	check apply-series apply_series_check
	local p
	while read -r p; do
		check "checkpatch ${p##*/}" checkpatch "$p"
	done < <(series_patches)
	bisect_builds
	check kernel-test "$ROOT/scripts/build-kernel.sh" test
	check perf "$ROOT/scripts/build-perf.sh"
	check selftests "$ROOT/scripts/build-selftests.sh"
	for t in "$ROOT"/tests/tooling/*.sh; do
		check "tooling/$(basename "$t" .sh)" "$t"
	done
	if grep -q '^FAIL kernel-test$\|^FAIL perf$\|^FAIL selftests$' "$RESULTS"; then
		record FAIL "vm-tests (not run: a build failed)"
	else
		vm_tests
	fi
	summary
}

main "$@"
