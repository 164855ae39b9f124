#!/bin/bash
# A persistent session as a user makes one on a big server (64 CPUs here),
# with perf's default sizes, as TAP: it is created on every CPU, listed,
# read and deleted; a refusal must say how much memory it needed.
set -uo pipefail

# shellcheck source=guest/tap.sh
. "$(dirname "$0")/tap.sh"
name=big_$$
data=$(mktemp /tmp/many.XXXXXX)
trap 'perf ctl -d "$name" >/dev/null 2>&1; rm -f "$data"' EXIT

cpus=$(nproc)
[ "$cpus" -ge 64 ]
result $? "64 or more CPUs online ($cpus)"

out=$(perf record -P "$name" -e cpu-clock -a 2>&1)
result $? "perf record -P with default sizes on $cpus CPUs" "$out"
last=$((cpus - 1))
list=$(perf ctl -l 2>&1)
awk -v n="$name" -v c="0-$last" '$1 == n && $3 == c { f = 1 } END { exit !f }' \
	<<<"$list"
result $? "perf ctl -l lists the session on CPUs 0-$last" "$list"
out=$(perf record -e "persistent/$name/" -a -o "$data" 2>&1)
result $? "perf record -e persistent/<session>/ reads every CPU" "$out"
out=$(perf ctl -d "$name" 2>&1)
result $? "perf ctl -d deletes it" "$out"
tap_done
