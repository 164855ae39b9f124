#!/usr/bin/env bash
# classify-results.sh RUNDIR: turn the raw outputs of tests/vm/run-tests.sh
# into result lines (PASS, FAIL, SKIP, XFAIL NAME [why]) on stdout, applying
# tests/expected-results.txt: a listed failure is XFAIL, a listed failure
# that passes is FAIL, a skip not listed is FAIL, a listed test that did
# not run is FAIL. A test listed "slow" fails only when emulation is too
# slow for its harness timeout: a pass is PASS, a failure XFAIL.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

out=${1:?usage: classify-results.sh RUNDIR}/out
expect_file=${EXPECTED_RESULTS:-$ROOT/tests/expected-results.txt}

# Raw results: "pass|fail|skip|missing NAME".
raw() {
	local line bin='' n=0 name
	if [ -f "$out/kselftest.tap" ]; then
		while IFS= read -r line; do
			case "$line" in
			'# selftests: perf_events: '*) bin=${line##*: } ;;
			'# ok '* | '# not ok '*)
				line=${line#\# }
				emit_tap "kselftest/$bin" "$line" ;;
			'ok '*'selftests: perf_events: '* | 'not ok '*'selftests: perf_events: '*)
				emit_tap "kselftest" "$line" ;;
			esac
		done <"$out/kselftest.tap"
	fi
	while IFS= read -r name; do
		case "$name" in '' | '#'*) continue ;; esac
		n=$((n + 1))
		if ! grep -qE '^ *[0-9]+(\.[0-9]+)?: .*: (Ok|FAILED!|Skip)' \
			"$out/perf-test.$n.log" 2>/dev/null; then
			echo "missing perf-test/$name"
			continue
		fi
		grep -E '^ *[0-9]+(\.[0-9]+)?: .*: (Ok|FAILED!|Skip)' \
			"$out/perf-test.$n.log" |
			sed -E -e 's/^ *[0-9.]+: *//' \
				-e 's/^(.*[^ ]) *: Ok.*/pass perf-test\/\1/' \
				-e 's/^(.*[^ ]) *: FAILED!.*/fail perf-test\/\1/' \
				-e 's/^(.*[^ ]) *: Skip.*/skip perf-test\/\1/'
	done <"$ROOT/tests/perf-tests.list"
}

# emit_tap PREFIX "ok 3 name # SKIP why"
emit_tap() {
	local prefix=$1 line=$2 verdict name
	case "$line" in
	'not ok '*) verdict=fail line=${line#not ok } ;;
	*) verdict=pass line=${line#ok } ;;
	esac
	name=${line#* }
	case "$name" in *'# SKIP'*) verdict=skip ;; esac
	name=${name%% \#*}
	name=${name#selftests: perf_events: }
	echo "$verdict $prefix/$name"
}

expected() {
	awk -v n="$1" '!/^#/ && $1 == n { print $2; exit }' "$expect_file"
}

declare -A seen
while read -r verdict name; do
	name=${name// /_}
	seen[$name]=1
	want=$(expected "$name")
	case "$verdict/$want" in
	pass/ | pass/slow) echo "PASS $name" ;;
	fail/slow) echo "XFAIL $name" ;;
	pass/*) echo "FAIL $name (listed as expected $want, but passed: update the list)" ;;
	fail/fail) echo "XFAIL $name" ;;
	missing/*) echo "FAIL $name (no result: no such test, or perf crashed)" ;;
	skip/skip) echo "SKIP $name" ;;
	*) echo "FAIL $name (got $verdict${want:+, expected $want})" ;;
	esac
done < <(raw)

while read -r name want _; do
	case "$name" in '' | '#'*) continue ;; esac
	[ -n "${seen[$name]:-}" ] || echo "FAIL $name (listed as $want, but did not run)"
done <"$expect_file"
