# shellcheck shell=bash
# Results, stages and the deadline of the test command (check/run.sh).
# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

CHECK_DIR=$BUILD/check
RESULTS=$CHECK_DIR/results       # PASS|FAIL|XFAIL|SKIP NAME [why]
KTAP=$CHECK_DIR/results.ktap
STAGES=$CHECK_DIR/stages         # NAME SECONDS
# CI stops a run at 90 minutes; leave 5 for set-up and reporting.
BUDGET=${CHECK_BUDGET:-5100}
T0=$(date +%s)
DEADLINE=$((T0 + BUDGET))

remaining() { echo $((DEADLINE - $(date +%s))); }

record() { echo "$*" >>"$RESULTS"; }

# check NAME CMD...: one check, run as a step (timed, logged).
check() {
	local name=$1
	shift
	if step "$name" "$@"; then record PASS "$name"; else record FAIL "$name"; fi
}

# stage NAME: the stages' timing table; the time since the previous mark
# is charged to the stage that was running.
stage_name='' stage_t0=$T0
stage() {
	local now
	now=$(date +%s)
	[ -z "$stage_name" ] || echo "$stage_name $((now - stage_t0))" >>"$STAGES"
	stage_name=$1 stage_t0=$now
	[ -z "$1" ] || echo "=== stage: $1 ($(fmt_secs "$(remaining)") left)"
}

# The results as KTAP, for kernel CI systems: XFAIL and SKIP are
# directives on an "ok" line, the reason follows.
write_ktap() {
	local n=0 verdict name
	{
		echo "KTAP version 1"
		echo "1..$(wc -l <"$RESULTS")"
		while read -r verdict name; do
			n=$((n + 1))
			case "$verdict" in
			PASS) echo "ok $n $name" ;;
			XFAIL) echo "ok $n $name # XFAIL listed in check/expected-results.txt" ;;
			SKIP) echo "ok $n $name # SKIP" ;;
			*) echo "not ok $n $name" ;;
			esac
		done <"$RESULTS"
	} >"$KTAP"
}

# summary [NOTE]: the stage table, what did not pass, the KTAP file, and
# the closing "N passed, N failed" line; false if anything failed.
# SUMMARY_DONE: the summary was printed (check/run.sh's exit trap reads it).
SUMMARY_DONE=''
summary() {
	local pass xfail fail skip name secs
	# shellcheck disable=SC2034 # read by check/run.sh
	SUMMARY_DONE=1
	stage ''
	pass=$(grep -c '^PASS ' "$RESULTS" || true)
	xfail=$(grep -c '^XFAIL ' "$RESULTS" || true)
	fail=$(grep -c '^FAIL ' "$RESULTS" || true)
	skip=$(grep -c '^SKIP ' "$RESULTS" || true)
	write_ktap
	echo
	echo "=== time: $(fmt_secs $(($(date +%s) - T0))) of the $(fmt_secs "$BUDGET") budget${1:+ ($1)}"
	while read -r name secs; do
		printf '  %-12s %s\n' "$name" "$(fmt_secs "$secs")"
	done <"$STAGES"
	echo "=== results: $RESULTS, as KTAP: $KTAP"
	grep -E '^(FAIL|SKIP|XFAIL) ' "$RESULTS" | sed 's/^/  /' || true
	if [ "$xfail" -gt 0 ]; then
		echo "  ($xfail expected failures, counted as passed: each is listed" \
			"with its reason in check/expected-results.txt)"
	fi
	# Last, where CI's short excerpt of the output still shows it.
	# Only this run's VMs: a run of other stages leaves older ones.
	if grep -q '^vm ' "$STAGES" &&
		cat "$CHECK_DIR"/vm-*/why-failed >"$CHECK_DIR/why-failed" 2>/dev/null &&
		[ -s "$CHECK_DIR/why-failed" ]; then
		echo "=== why the unexpected failures failed (the harness's words):"
		head -n 24 "$CHECK_DIR/why-failed"
	fi
	echo "$((pass + xfail)) passed, $fail failed${skip:+, $skip skipped}"
	[ "$fail" -eq 0 ]
}
