#!/usr/bin/env bash
# Export the tree's commits back to patches/: one file per commit, named by
# subject, and the series file.  Unchanged commits give identical files.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

state=$(tree_state)
case "$state" in
missing) die "no tree: run 'make tree'" ;;
dirty) die "build/linux has uncommitted edits: commit them first" ;;
behind) die "patches/ is newer than the tree: run 'make tree' (nothing to export)" ;;
synced) note "patches/ already up to date"; exit 0 ;;
esac

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export_series "$tmp"
for f in "$PATCHES"/*.patch; do
	[ -e "$f" ] || continue
	[ -e "$tmp/${f##*/}" ] || { rm "$f"; echo "removed  ${f##*/}"; }
done
for f in "$tmp"/*.patch; do
	[ -e "$f" ] || continue
	if ! cmp -s "$f" "$PATCHES/${f##*/}"; then
		[ -e "$PATCHES/${f##*/}" ] && what=changed || what=added
		cp "$f" "$PATCHES/"
		echo "$what  ${f##*/}"
	fi
done
cmp -s "$tmp/series" "$PATCHES/series" || cp "$tmp/series" "$PATCHES/series"
digest_series "$PATCHES" >"$SYNC_STAMP"
