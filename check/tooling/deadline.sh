#!/usr/bin/env bash
# The deadline: with less of the budget left than the stages after the
# bisect need (and an empty memory), the bisect builds nothing and counts
# the base and each patch but the tip that builds something as failed, by
# number and subject, so the summary names what did not run.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# shellcheck source=check/lib.sh
CHECK_BUDGET=100 . "$root/check/lib.sh"
# shellcheck source=check/bisect.sh
. "$root/check/bisect.sh"
RESULTS=$tmp/results
# An empty memory: a state it holds costs nothing and is never refused.
BISECT_CACHE=$tmp/memory
: >"$RESULTS"

patches=$(kgit rev-list --count "$BASE_TAG..$BRANCH")
# A state that builds nothing (documentation alone) costs nothing either.
nothing=0
for c in $(kgit rev-list "$BASE_TAG..$BRANCH^"); do
	[ -n "$(state_builds "$c")" ] || nothing=$((nothing + 1))
done
bisect_builds 1000 >"$tmp/out" 2>&1
refused=$(grep -c '^FAIL bisect [0-9]*/[0-9]* .*(not built: no time left' \
	"$RESULTS" || true)
[ "$refused" = $((patches - nothing)) ] ||
	fail "$refused of $patches bisect states (the base and all patches but the tip, $nothing of which build nothing) counted as not built"
! grep -qv '^FAIL ' "$RESULTS" || fail "something was built or passed"
last=$(printf 'bisect %02d/%02d' $((patches - 1)) "$patches")
# The state is named by its posting too.
last_posting=$(posting_of_commits | awk -v c="$(kgit rev-parse "$BRANCH^")" '$2 == c { print $1 }')
[ "${last_posting:-.}" = . ] || last+=" [$last_posting]"
last+=" $(kgit log -1 --format=%s "$BRANCH^")"
grep -qF "FAIL $last (" "$RESULTS" || fail "no line for '$last'"
grep -qF "FAIL $(printf 'bisect 00/%02d' "$patches") kernel-base (" "$RESULTS" ||
	fail "no line for the base"
[ "$(kgit branch --show-current)" = "$BRANCH" ] || fail "left $SRC off $BRANCH"
echo "deadline: with 100 s left of a 1000 s reserve, $refused bisect states not built, each named ($nothing build nothing)"
