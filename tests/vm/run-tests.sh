#!/bin/bash
# Runs inside the VM (see scripts/vm-run.sh): the perf_events kselftests
# and the perf tests named in tests/perf-tests.list.  Raw outputs go to
# $VM_OUT; the host classifies them (tests/classify.sh).
set -euo pipefail

: "${ROOT:?}" "${BUILD:?}" "${VM_OUT:?}"
only=${1:-all}

echo "guest: $(uname -r), $(nproc) CPUs online"
grep -c ^processor /proc/cpuinfo >"$VM_OUT/cpus"

if [ "$only" = all ] || [ "$only" = kselftest ]; then
	echo "=== kselftests: perf_events"
	# Timeouts are generous: TCG with KASAN is slow; the host has its own.
	"$BUILD/kselftest/run_kselftest.sh" -c perf_events -o 900 |
		tee "$VM_OUT/kselftest.tap" || true
fi

if [ "$only" = all ] || [ "$only" = perf ]; then
	echo "=== perf test"
	# perf finds its shell tests relative to the current directory.
	cd "$BUILD/linux/tools/perf"
	n=0
	while IFS= read -r name; do
		case "$name" in '' | '#'*) continue ;; esac
		n=$((n + 1))
		echo "--- perf test '$name'"
		perf test -v "$name" >"$VM_OUT/perf-test.$n.log" 2>&1 || true
		grep -E '^ *[0-9]+(\.[0-9]+)?: .*: (Ok|FAILED!|Skip)' \
			"$VM_OUT/perf-test.$n.log" |
			tee -a "$VM_OUT/perf-test.results" || true
		printf '%s\n' "$name" >>"$VM_OUT/perf-test.names"
	done <"$ROOT/tests/perf-tests.list"
fi
