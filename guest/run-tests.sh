#!/bin/bash
# run-tests.sh VM: runs inside a VM (scripts/vm-run.sh) the tests that
# check/vm-tests.list gives to VM, each under its own timeout, and leaves
# the raw outputs in $VM_OUT for the host (check/classify.sh):
#   kselftest NAME    kselftest.tap   (run_kselftest.sh's TAP)
#   perf-test NAME    perf-test.<line>.log   (perf test -v NAME)
#   script NAME       script.<line>.tap      (guest/NAME.sh, prints TAP)
# A test that times out leaves what it printed; the host names it.
set -euo pipefail

: "${ROOT:?}" "${BUILD:?}" "${VM_OUT:?}"
vm=${1:?usage: run-tests.sh VM}

echo "guest: $(uname -r), $(nproc) CPUs online, tests of VM '$vm'"
nproc >"$VM_OUT/cpus"

n=0
while read -r want secs kind name; do
	n=$((n + 1))
	case "$want" in '' | '#'*) continue ;; esac
	[ "$want" = "$vm" ] || continue
	echo "--- $kind '$name' (at most ${secs}s, $(date +%T))"
	case "$kind" in
	kselftest)
		# The runner kills a binary at its own timeout (-o); ours
		# is a backstop for the runner itself.
		timeout -k 10 $((secs + 30)) \
			"$BUILD/kselftest/run_kselftest.sh" -o "$secs" \
			-t "perf_events:$name" </dev/null | tee -a "$VM_OUT/kselftest.tap" ||
			true
		;;
	perf-test)
		# perf finds its shell tests relative to the current directory.
		(cd "$BUILD/linux/tools/perf" &&
			timeout -k 10 "$secs" perf test -v "$name" </dev/null) \
			>"$VM_OUT/perf-test.$n.log" 2>&1 || true
		grep -E '^ *[0-9]+(\.[0-9]+)?: .*: (Ok|FAILED!|Skip)' \
			"$VM_OUT/perf-test.$n.log" || true
		;;
	script)
		timeout -k 10 "$secs" bash "$ROOT/guest/$name.sh" </dev/null 2>&1 |
			tee "$VM_OUT/script.$n.tap" || true
		;;
	*) echo "unknown kind '$kind' in check/vm-tests.list line $n" ;;
	esac
done <"$ROOT/check/vm-tests.list"
echo "guest: VM '$vm' done ($(date +%T))"
