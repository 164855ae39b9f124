#!/usr/bin/env bash
# Materialise the kernel git tree in build/linux: the base commit (the
# extracted source package), then one commit per patch in patches/series.
# Refuses to throw away commits or edits that are not exported, unless
# FORCE=1.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

make_base() {
	local version
	version=$(dpkg-query -W -f='${Version}' "$BASE_PACKAGE" 2>/dev/null) ||
		die "$BASE_PACKAGE is not installed: run scripts/setup.sh"
	note "extracting $BASE_TARBALL ($version) into $SRC"
	rm -rf "$SRC"
	mkdir -p "$SRC"
	tar -xf "$BASE_TARBALL" -C "$SRC" --strip-components=1
	# Debian's top-level .gitignore ends with '/*' (it ignores everything
	# outside debian/), which would hide every new file from git.  Drop
	# that block; it is the only change made to the package's source.
	sed -i '/^# Debian packaging: ignore everything/,/^!\/debian\/$/d' \
		"$SRC/.gitignore"
	git -C "$SRC" init -q -b "$BRANCH"
	git -C "$SRC" config core.untrackedCache true
	git -C "$SRC" config gc.auto 0
	git -C "$SRC" config user.name >/dev/null ||
		git -C "$SRC" config user.name "Flight recorder developers"
	git -C "$SRC" config user.email >/dev/null ||
		git -C "$SRC" config user.email "flightrec@example.invalid"
	git -C "$SRC" add -f -A
	# Fixed identity and dates: the same tarball gives the same base SHA.
	GIT_AUTHOR_NAME=Debian GIT_AUTHOR_EMAIL=debian-kernel@lists.debian.org \
	GIT_COMMITTER_NAME=Debian \
	GIT_COMMITTER_EMAIL=debian-kernel@lists.debian.org \
	GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' \
	GIT_COMMITTER_DATE='2026-01-01T00:00:00Z' \
		git -C "$SRC" commit -q -m "Base: $BASE_PACKAGE $version" \
		-m "The source package as extracted, less the catch-all rule at the
end of Debian's top-level .gitignore."
	git -C "$SRC" tag "$BASE_TAG"
}

# apply_series: the base, then every patch of patches/series; the last
# patch of each posting folder gets its branch posting/<folder>.
apply_series() {
	local p n=0 dir next
	local -a all
	kgit checkout -q -f -B "$BRANCH" "$BASE_TAG"
	kgit clean -q -fdx
	kgit for-each-ref --format='%(refname)' 'refs/heads/posting/' |
		while read -r ref; do kgit update-ref -d "$ref"; done
	# 'git rebase -i' then moves every posting branch it rewrites.
	kgit config rebase.updateRefs true
	mapfile -t all < <(series_patches)
	for ((n = 0; n < ${#all[@]}; n++)); do
		p=${all[$n]}
		kgit am -q --committer-date-is-author-date "$p" || {
			kgit am --abort || true
			die "${p#"$PATCHES"/} does not apply; the tree is left at the patch before it"
		}
		dir=${p#"$PATCHES"/}
		dir=${dir%/*}
		next=${all[$((n + 1))]:-}
		next=${next#"$PATCHES"/}
		if [ "$dir" != "${p#"$PATCHES"/}" ] && [ "${next%/*}" != "$dir" ]; then
			kgit branch -q -f "posting/$dir" HEAD
		fi
	done
	note "tree: base $(kgit rev-parse --short "$BASE_TAG") + $n patches in $(postings | wc -l) postings"
}

state=$(tree_state)
case "$state" in
missing)
	make_base
	apply_series
	;;
detached)
	note "tree: was left off its branch (at $(kgit log -1 --format='%h %s')): back to $BRANCH"
	kgit checkout -q "$BRANCH"
	exec "$0" "$@"
	;;
synced)
	note "tree: up to date with patches/"
	exit 0
	;;
behind)
	apply_series
	;;
dirty | ahead)
	if [ "${FORCE:-0}" != 1 ]; then
		die "build/linux has work that is not exported ($state):" \
			"run 'make export' first, or FORCE=1 to discard it"
	fi
	apply_series
	;;
esac

tmp=$(mktemp -d)
export_series "$tmp"
digest_series "$tmp" >"$SYNC_STAMP"
rm -rf "$tmp"
[ "$(cat "$SYNC_STAMP")" = "$(digest_series "$PATCHES")" ] ||
	echo "WARNING: 'make export' would rewrite patches/ (format differs)" >&2
