#!/usr/bin/env bash
# The edit-export workflow on a toy tree: export is stable, an amended
# commit changes exactly one patch file, status tells every state apart,
# and tree.sh refuses to drop work that is not exported.
set -euo pipefail

scripts=$(cd "$(dirname "$0")/../../scripts" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export BUILD_DIR=$tmp/build PATCHES_DIR=$tmp/patches
src=$BUILD_DIR/linux
mkdir -p "$src" "$PATCHES_DIR"
touch "$PATCHES_DIR/series"

fail() { echo "FAIL: $*"; exit 1; }
g() { git -C "$src" "$@"; }
commit() { # commit FILE TEXT SUBJECT
	printf '%s\n' "$2" >"$src/$1"
	g add "$1"
	g commit -q -m "$3" -m "Why: a test." -m "Signed-off-by: T <t@example.invalid>"
}
status() { "$scripts/status.sh"; }
# status_says TEXT: status output contains TEXT (no pipe: grep -q would
# cut status off and pipefail would turn that into a failure).
status_says() { status >"$tmp/status"; grep -q "$1" "$tmp/status"; }

g init -q -b series
g config user.name T
g config user.email t@example.invalid
commit a.c 'int a;' base
g tag base
commit b.c 'int b;' 'toy: Add b'
commit c.c 'int c;' 'toy: Add c'
commit d.c 'int d;' 'toy: Add d'

status_says 'COMMITS NOT EXPORTED' || fail "unexported commits not reported"
"$scripts/export.sh" >/dev/null
[ "$(cat "$PATCHES_DIR/series")" = "$(printf '%s\n' toy-Add-b.patch toy-Add-c.patch toy-Add-d.patch)" ] ||
	fail "series file: $(cat "$PATCHES_DIR/series")"
grep -q '^From 0000000000000000000000000000000000000000' "$PATCHES_DIR/toy-Add-b.patch" ||
	fail "no zero commit"
status_says 'in sync' || fail "status after export: $(status)"

sums() { (cd "$PATCHES_DIR" && sha256sum series ./*.patch); }
before=$(sums)
"$scripts/export.sh" >/dev/null
[ "$(sums)" = "$before" ] || fail "re-export changed files"

# Amend the middle commit: exactly one patch file changes.
g checkout -q -b tmp HEAD~1
printf 'int c2;\n' >>"$src/c.c"
g commit -q -a --amend --no-edit
g checkout -q series
g rebase -q --onto tmp HEAD~1 series
g branch -q -D tmp
"$scripts/export.sh" >"$tmp/export.out"
[ "$(cat "$tmp/export.out")" = "changed  toy-Add-c.patch" ] ||
	fail "export after amend: $(cat "$tmp/export.out")"
changed=$(diff <(echo "$before") <(sums) | grep -c '^>' || true)
[ "$changed" = 1 ] || fail "$changed files changed, expected 1"

# Uncommitted edits and new files are reported, and block tree.sh.
echo 'int e;' >"$src/e.c"
status_says 'UNCOMMITTED' || fail "untracked file not reported"
if "$scripts/tree.sh" 2>/dev/null; then fail "tree.sh dropped an edit"; fi
rm "$src/e.c"

# A patch dropped from patches/: the tree is behind and tree.sh rebuilds it.
sed -i '/toy-Add-d/d' "$PATCHES_DIR/series"
rm "$PATCHES_DIR/toy-Add-d.patch"
status_says 'patches/ changed' || fail "behind not reported: $(status)"
"$scripts/tree.sh" >/dev/null
[ "$(g log --format=%s base..series | wc -l)" = 2 ] || fail "tree not rebuilt"
status_says 'in sync' || fail "status after tree: $(status)"

# A new commit is not dropped by tree.sh.
commit f.c 'int f;' 'toy: Add f'
if "$scripts/tree.sh" 2>/dev/null; then fail "tree.sh dropped a commit"; fi

# Postings: a branch posting/<NN-name> at the last commit of each; export
# writes each posting's patches into its folder, tree.sh makes the
# branches again from the folders, and a rebase that amends a commit of
# the first posting keeps both branches on their postings.
g branch -q posting/01-first HEAD~1
g branch -q posting/02-second HEAD
"$scripts/export.sh" >/dev/null
[ "$(cat "$PATCHES_DIR/series")" = "$(printf '%s\n' '# 01-first' 01-first/toy-Add-b.patch \
	01-first/toy-Add-c.patch '# 02-second' 02-second/toy-Add-f.patch)" ] ||
	fail "posting series file: $(cat "$PATCHES_DIR/series")"
[ ! -e "$PATCHES_DIR/toy-Add-b.patch" ] || fail "flat patch left beside the postings"
echo 'A cover letter.' >"$PATCHES_DIR/01-first/cover-letter.txt"
before=$(cd "$PATCHES_DIR" && sha256sum series ./*/*)
g config rebase.updateRefs true	# as tree.sh sets it
GIT_SEQUENCE_EDITOR="sed -i '1s/^pick/edit/'" g rebase -q -i base >/dev/null 2>&1
printf 'int b2;\n' >>"$src/b.c"
g commit -q -a --amend --no-edit
g rebase --continue >"$tmp/rebase.out" 2>&1 || fail "rebase --continue failed: $(cat "$tmp/rebase.out")"
"$scripts/export.sh" >"$tmp/export.out"
[ "$(cat "$tmp/export.out")" = "changed  01-first/toy-Add-b.patch" ] ||
	fail "posting export after amend: $(cat "$tmp/export.out")"
after=$(cd "$PATCHES_DIR" && sha256sum series ./*/*)
[ "$(diff <(echo "$before") <(echo "$after") | grep -c '^>')" = 1 ] ||
	fail "amending one commit changed more than one file"
# A commit on top of the last posting is refused by name.
commit g.c 'int g;' 'toy: Add g'
if "$scripts/export.sh" >"$tmp/export.out" 2>&1; then fail "export took a commit outside the postings"; fi
grep -q 'commits after the last posting' "$tmp/export.out" || fail "no reason given: $(cat "$tmp/export.out")"
g reset -q --hard HEAD~1
FORCE=1 "$scripts/tree.sh" >/dev/null
[ "$(g rev-parse posting/01-first)" = "$(g rev-parse series~1)" ] || fail "tree.sh: posting/01-first"
[ "$(g rev-parse posting/02-second)" = "$(g rev-parse series)" ] || fail "tree.sh: posting/02-second"
status_says 'in sync' || fail "status after tree with postings: $(status)"
echo "series export: stable, one file per changed commit, states reported, postings in folders"
