# shellcheck shell=bash
# TAP for the guest's own test scripts (guest/many-cpus.sh, ...): each
# result is one "ok N name" or "not ok N name" line, the detail of a
# failure follows as "# " comments, and tap_done prints the plan and
# exits non-zero if anything failed.

tap_n=0 tap_failed=0

# result STATUS NAME [DETAIL]: STATUS 0 is a pass.
result() {
	tap_n=$((tap_n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $tap_n $2"
		return
	fi
	echo "not ok $tap_n $2"
	[ -z "${3:-}" ] || printf '%s\n' "$3" | sed 's/^/# /'
	tap_failed=1
}

tap_done() {
	echo "1..$tap_n"
	exit "$tap_failed"
}
