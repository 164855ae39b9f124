# shellcheck shell=bash
# Shared paths and helpers, sourced by every script in scripts/.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD_DIR:-$ROOT/build}
SRC=$BUILD/linux                 # the kernel git tree: base commit + series
LOGS=$BUILD/logs
PATCHES=${PATCHES_DIR:-$ROOT/patches}
# shellcheck source=base.conf
. "$ROOT/base.conf"

export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
# Hit the cache from any clone: paths below build/ are hashed relative,
# and the __FILE__ prefix map (which names the absolute source path but
# maps it away) is left out of the hash.
export CCACHE_BASEDIR=$BUILD
export CCACHE_IGNOREOPTIONS='-fmacro-prefix-map=* -ffile-prefix-map=*'
# Fixed build identity so that ccache hits across trees and machines.
export KBUILD_BUILD_USER=flightrec KBUILD_BUILD_HOST=vm
export KBUILD_BUILD_TIMESTAMP='Thu Jan  1 00:00:00 UTC 2026'

# Base commit identity: fixed, so the base SHA is the same everywhere.
BASE_TAG=base
BRANCH=series

JOBS=${JOBS:-$(nproc)}

die() { echo "error: $*" >&2; exit 1; }
note() { echo "--- $*"; }

# The repository's path ends up in the guest's kernel command line (init=)
# and in QEMU's -fsdev options, which split at spaces and commas.
case "$ROOT$BUILD" in
*[[:space:],]*) die "the repository path '$ROOT' (or BUILD_DIR) has a space or" \
	"a comma; QEMU and the kernel command line cannot carry it: clone elsewhere" ;;
esac

# kernel_arch FLAVOUR: the ARCH= a kernel flavour is built for.
kernel_arch() { if [ "$1" = i386 ]; then echo i386; else echo x86_64; fi; }

# kill_tree PID: end PID and everything below it (QEMU under timeout under
# a step, make under a build), children first so none is re-parented away.
kill_tree() {
	local child
	for child in $(pgrep -P "$1" 2>/dev/null || true); do
		kill_tree "$child"
	done
	kill -TERM "$1" 2>/dev/null || true
}

# kill_tree_below PID: end everything PID started, not PID itself.
kill_tree_below() {
	local child
	for child in $(pgrep -P "$1" 2>/dev/null || true); do
		kill_tree "$child"
	done
}

# stop_children_on_signal: on Ctrl-C or SIGTERM, end everything this
# script started and exit 130. step() runs its command in the background,
# where a script's children ignore SIGINT: without this, make would go on.
stop_children_on_signal() {
	trap 'trap - INT TERM; echo "interrupted: stopping what this run started" >&2;
		kill_tree_below $$; exit 130' INT TERM
}

fmt_secs() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }

# step NAME CMD...: run CMD with its output in $LOGS/<NAME>.log, one line
# per step with its time; a ticker shows progress of long steps; on
# failure the end of the log is shown and the log kept.
step() {
	local name=$1 log start rc=0 pid last=0 now
	shift
	log=$LOGS/$(printf '%s' "$name" | tr -c 'A-Za-z0-9._-' '_').log
	mkdir -p "$LOGS"
	start=$(date +%s)
	echo "==> $name"
	"$@" >"$log" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		sleep 2
		now=$(($(date +%s) - start))
		if [ $((now - last)) -ge 30 ]; then
			echo "    ... $name: $(fmt_secs "$now") so far"
			last=$now
		fi
	done
	wait "$pid" || rc=$?
	now=$(($(date +%s) - start))
	if [ "$rc" -ne 0 ]; then
		echo "[FAIL] $name ($(fmt_secs "$now")), log: $log"
		tail -n 40 "$log" | sed 's/^/    /'
		return "$rc"
	fi
	echo "[ ok ] $name ($(fmt_secs "$now"))"
}

# The patch files of the series, in order.
series_patches() {
	[ -f "$PATCHES/series" ] || return 0
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$PATCHES/series" |
		while read -r p _; do echo "$PATCHES/$p"; done
}

# git in the kernel tree, with settings that make exports reproducible.
kgit() {
	git -C "$SRC" -c core.abbrev=12 -c diff.algorithm=myers \
		-c diff.noprefix=false -c diff.mnemonicPrefix=false \
		-c diff.renames=true -c format.signature= "$@"
}

# --- The series as a git tree ----------------------------------------------

SYNC_STAMP=$SRC/.git/flightrec-synced

# The postings: branches posting/<NN-name> in the tree, each at the last
# commit of one posting (a series of its own, sent to one tree), in the
# order of their names. The tree keeps them across 'git rebase -i'
# (rebase.updateRefs); tree.sh makes them from the folders of patches/.
postings() {
	kgit for-each-ref --format='%(refname:strip=2)' 'refs/heads/posting/' |
		sed 's|^posting/||' | LC_ALL=C sort
}

# posting_of_commits: "POSTING SHA" for each commit after the base, in
# order; fails unless the postings chain (each on top of the one before)
# and the last ends at the tip. No postings: the flat layout, POSTING "."
posting_of_commits() {
	local p prev=$BASE_TAG c last=''
	if [ -z "$(postings)" ]; then
		kgit rev-list --reverse "$BASE_TAG..$BRANCH" | sed 's/^/. /'
		return
	fi
	for p in $(postings); do
		kgit merge-base --is-ancestor "$prev" "posting/$p" ||
			die "posting/$p is not on top of ${last:-the base}: move the branch or rebase"
		kgit merge-base --is-ancestor "posting/$p" "$BRANCH" ||
			die "posting/$p is not part of $BRANCH"
		for c in $(kgit rev-list --reverse "$prev..posting/$p"); do
			echo "$p $c"
		done
		prev=posting/$p last=posting/$p
	done
	[ "$(kgit rev-parse "$prev")" = "$(kgit rev-parse "$BRANCH")" ] ||
		die "$BRANCH has commits after the last posting ($last):" \
			"move that branch to the tip or start a new posting/<NN-name>"
}

# export_series DIR: write the tree's commits after the base as patch files
# named by subject (no number: inserting a patch renames nothing), each in
# the folder of its posting, plus a quilt series file that names them in
# order, a comment line before each posting. --zero-commit,
# --no-signature, a fixed abbrev and an unnumbered subject keep the output
# of an unchanged commit byte-identical.
export_series() {
	local dir=$1 tmp f name n posting c sub prev='' map try stem
	local -a files
	map=$(posting_of_commits) || return 1
	tmp=$(mktemp -d)
	kgit format-patch -q --zero-commit --no-signature --no-numbered \
		--base="$BASE_TAG" -o "$tmp" "$BASE_TAG..$BRANCH"
	files=("$tmp"/*.patch)
	: >"$dir/series"
	n=0
	while read -r posting c; do
		f=${files[$n]}
		n=$((n + 1))
		sub=''
		[ "$posting" = . ] || sub=$posting/
		if [ "$posting" != "$prev" ] && [ "$posting" != . ]; then
			echo "# $posting" >>"$dir/series"
		fi
		prev=$posting
		mkdir -p "$dir/$sub"
		name=${f##*/}
		name=${name#[0-9][0-9][0-9][0-9]-}
		try=2 stem=${name%.patch}
		while [ -e "$dir/$sub$name" ]; do
			name=$stem-$try.patch
			try=$((try + 1))
		done
		mv "$f" "$dir/$sub$name"
		echo "$sub$name" >>"$dir/series"
	done <<<"$map"
	rm -rf "$tmp"
}

# digest_series DIR: one hash over the series file and its patches.
digest_series() {
	local dir=$1
	{
		cat "$dir/series" 2>/dev/null || true
		sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$dir/series" 2>/dev/null |
			while read -r p _; do cat "$dir/$p"; done
	} | sha256sum | cut -d' ' -f1
}

# tree_state: prints one of
#   missing    no tree yet
#   dirty      uncommitted edits in the tree
#   synced     the tree exports to exactly patches/
#   behind     patches/ changed since the tree was made (the tree did not)
#   ahead      the tree has commits that are not exported
#   detached   the work tree is not on its branch (an interrupted bisect
#              build left it at an older commit); the branch is intact
tree_state() {
	local tmp tree_digest
	if ! [ -d "$SRC/.git" ] || ! kgit rev-parse -q --verify "$BASE_TAG" >/dev/null; then
		echo missing
		return
	fi
	if [ -n "$(kgit status --porcelain --untracked-files=normal | head -n1)" ]; then
		echo dirty
		return
	fi
	if [ "$(kgit branch --show-current)" != "$BRANCH" ]; then
		echo detached
		return
	fi
	tmp=$(mktemp -d)
	export_series "$tmp"
	tree_digest=$(digest_series "$tmp")
	rm -rf "$tmp"
	if [ "$tree_digest" = "$(digest_series "$PATCHES")" ]; then
		echo synced
	elif [ "$tree_digest" = "$(cat "$SYNC_STAMP" 2>/dev/null)" ]; then
		echo behind
	else
		echo ahead
	fi
}

# apt_pick PACKAGE VERSION: "PACKAGE=VERSION" if apt serves that version,
# else "PACKAGE" (the newest apt serves) and a warning: the archive drops
# old versions, and a pinned one must not stop a fresh machine.
apt_pick() {
	if apt-cache madison "$1" | awk '{ print $3 }' | grep -qxF "$2"; then
		echo "$1=$2"
	else
		echo "WARNING: apt no longer offers $1 $2; not asking for that version" >&2
		echo "$1"
	fi
}

# say_base: the base the builds use, from scripts/setup.sh's record, for
# the output of the two commands (a step's own output goes to its log).
say_base() {
	local pkg version sum
	[ -f "$BUILD/base-used" ] || return 0
	read -r pkg version sum <"$BUILD/base-used" || return 0
	if [ "$version" = "$BASE_VERSION" ]; then
		echo "    base: $pkg $version, as pinned in base.conf (sha256 verified)"
	else
		echo "WARNING: base: $pkg $version (sha256 $sum), not $BASE_VERSION as" \
			"pinned in base.conf: apt no longer offers it; apply-series tells" \
			"whether the series still applies"
	fi
}

# require_root: apt-get, QEMU's 9p export of / and the kernel builds' use
# of the whole tree need root; say so before doing anything.
require_root() {
	[ "$(id -u)" = 0 ] || die "run as root (apt-get installs packages and" \
		"QEMU exports / to the guest)"
}
