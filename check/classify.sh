#!/usr/bin/env bash
# classify.sh RUNDIR VM: turn the raw outputs of guest/run-tests.sh VM (or
# of guest/init32.c for VM i386) into result lines on stdout:
#   PASS|FAIL|XFAIL|SKIP NAME [why]
# applying check/expected-results.txt: a listed failure is XFAIL, a listed
# failure that passes is FAIL, a skip not listed is FAIL. A test listed
# "slow" fails only when emulation is too slow for its harness timeout: a
# pass is PASS, a failure XFAIL. Every test check/vm-tests.list gives VM
# must leave a result: one that does not is a FAIL that names it. (That
# every test listed in expected-results.txt ran is checked by check/run.sh
# over all VMs.)
# Names carry the VM ("i386/kselftest/mmap/...") except for the debug
# VM a's.
# The harness lines of unexpected failures go to RUNDIR/why-failed.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

rundir=${1:?usage: classify.sh RUNDIR VM}
vm=${2:?usage: classify.sh RUNDIR VM}
out=$rundir/out
expect_file=${EXPECTED_RESULTS:-$ROOT/check/expected-results.txt}
case "$vm" in a) prefix='' ;; *) prefix=$vm/ ;; esac

perf_result='^ *[0-9]+(\.[0-9]+)?: .*: (Ok|FAILED!|Skip)'

# tap_lines PREFIX FILE: "verdict PREFIX/name" for each ok/not ok line,
# subtests (indented with "# ") named after their binary.
tap_lines() {
	local prefix=$1 file=$2 line bin=''
	while IFS= read -r line; do
		case "$line" in
		'# selftests: perf_events: '*) bin=${line##*: } ;;
		'# ok '* | '# not ok '*) emit_tap "$prefix/$bin" "${line#\# }" ;;
		'ok '* | 'not ok '*) emit_tap "$prefix" "$line" ;;
		esac
	done <"$file"
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
	printf '%s\t%s\t\n' "$verdict" "$prefix/$name"
}

# Raw results, one a line: verdict (pass, fail, skip, missing), a tab,
# the name, a tab, why.
raw() {
	local n=0 want secs kind name tap=$out/kselftest.tap
	[ -f "$tap" ] && tap_lines "${prefix}kselftest" "$tap"
	while read -r want secs kind name; do
		n=$((n + 1))
		case "$want" in '' | '#'*) continue ;; esac
		[ "$want" = "$vm" ] || continue
		case "$kind" in
		kselftest)
			grep -qE "^(not )?ok [0-9]+ selftests: perf_events: $name( |\$)" \
				"$tap" 2>/dev/null ||
				printf 'missing\t%s\t%s\n' "${prefix}kselftest/$name" \
					"(no result within ${secs}s)"
			;;
		perf-test)
			if ! grep -qE "$perf_result" "$out/perf-test.$n.log" 2>/dev/null; then
				printf 'missing\t%s\t%s\n' "${prefix}perf-test/$name" \
					"(no result within ${secs}s, or perf crashed)"
				continue
			fi
			grep -E "$perf_result" "$out/perf-test.$n.log" |
				sed -E -e 's/^ *[0-9.]+: *//' \
					-e "s|^(.*[^ ]) *: Ok.*|pass\t${prefix}perf-test/\\1\t|" \
					-e "s|^(.*[^ ]) *: FAILED!.*|fail\t${prefix}perf-test/\\1\t|" \
					-e "s|^(.*[^ ]) *: Skip.*|skip\t${prefix}perf-test/\\1\t|"
			;;
		script)
			[ -f "$out/script.$n.tap" ] &&
				tap_lines "${prefix}script/$name" "$out/script.$n.tap"
			grep -qE '^1\.\.[0-9]+$' "$out/script.$n.tap" 2>/dev/null ||
				printf 'missing\t%s\t%s\n' "${prefix}script/$name" \
					"(did not finish within ${secs}s)"
			;;
		esac
	done <"$ROOT/check/vm-tests.list"
}

# why_failed NAME: the harness's own lines about a failed kselftest
# subtest (assertion, TH_LOG), or a failed or skipped perf test's own
# FAIL and SKIP lines, so the summary can show why.
why_failed() {
	local sub=${1##*/} log lines
	case "$1" in
	*perf-test/*)
		# Named as raw() names it: each space made an underscore.
		sub=${1#*perf-test/}
		for log in "$out"/perf-test.*.log; do
			[ -f "$log" ] || continue
			sed -nE 's/^ *[0-9.]+: *(.*[^ ]) *: (FAILED!|Skip).*/\1/p' "$log" |
				tr ' ' _ | grep -qxF -- "$sub" || continue
			lines=$(grep -E '(^|[^A-Za-z])(FAIL|SKIP)([^A-Za-z]|$)' "$log" |
				tail -n 6) || true
			# None of its own (a shell test that died of set -e, say):
			# its last words before perf test's verdict.
			[ -n "$lines" ] ||
				lines=$(grep -vE '^ *[0-9.]+: .*[^ ] *: (Running|FAILED!)|^-{3,4} (start|end)' \
					"$log" | tail -n 3) || true
			[ -z "$lines" ] ||
				awk -v p="    $1: " '{ print p $0 }' <<<"$lines"
		done
		return 0
		;;
	esac
	[ -f "$out/kselftest.tap" ] || return 0
	awk -v s="$sub" '
		index($0, "RUN           " s " ...") { on = 1; next }
		on && $0 ~ ("^# (not )?ok [0-9]+ " s "( |$)") { exit }
		on && !/ FAIL  / { sub(/^# # /, ""); print }
	' "$out/kselftest.tap" | tail -n 6 | sed "s|^|    $1: |"
}

expected() {
	awk -v n="$1" '!/^#/ && $1 == n { print $2; exit }' "$expect_file"
}

while IFS=$'\t' read -r verdict name why; do
	name=${name// /_}
	want=$(expected "$name")
	case "$verdict/$want" in
	pass/ | pass/slow) echo "PASS $name" ;;
	fail/slow | fail/fail) echo "XFAIL $name" ;;
	pass/*) echo "FAIL $name (listed as expected $want, but passed: update the list)" ;;
	missing/*) echo "FAIL $name $why" ;;
	skip/skip) echo "SKIP $name" ;;
	*)
		echo "FAIL $name (got $verdict${want:+, expected $want})"
		why_failed "$name" >>"$rundir/why-failed"
		;;
	esac
done < <(raw)
