#!/usr/bin/env bash
# Export the tree's commits back to patches/: one file per commit, named by
# subject, in the folder of its posting (posting/<NN-name> branches), and
# the series file. Unchanged commits give identical files; each posting's
# cover-letter.txt is written by hand and left alone.
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
while read -r f; do
	rel=${f#"$PATCHES"/}
	[ -e "$tmp/$rel" ] || { rm "$f"; echo "removed  $rel"; }
done < <(find "$PATCHES" -name '*.patch' | LC_ALL=C sort)
while read -r f; do
	rel=${f#"$tmp"/}
	if ! cmp -s "$f" "$PATCHES/$rel"; then
		[ -e "$PATCHES/$rel" ] && what=changed || what=added
		mkdir -p "$(dirname "$PATCHES/$rel")"
		cp "$f" "$PATCHES/$rel"
		echo "$what  $rel"
	fi
done < <(find "$tmp" -name '*.patch' | LC_ALL=C sort)
cmp -s "$tmp/series" "$PATCHES/series" || cp "$tmp/series" "$PATCHES/series"
# A posting folder left without patches: say so, keep its cover letter.
for d in "$PATCHES"/*/; do
	[ -d "$d" ] || continue
	compgen -G "$d*.patch" >/dev/null ||
		echo "WARNING: ${d#"$PATCHES"/} holds no patch any more (its cover letter is kept)" >&2
done
digest_series "$PATCHES" >"$SYNC_STAMP"
