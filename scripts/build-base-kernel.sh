#!/usr/bin/env bash
# build-base-kernel.sh [--stay]: the unpatched base, for the base VM (the
# series' perf on an old kernel) and make bench: build/linux checked out at
# the base commit, the release kernel and perf built there in their usual
# folders (so nothing is built cold twice: the series' builds that follow
# are incremental), then saved to build/kernel-base (bzImage, .config) and
# build/perf-base (perf). Skipped while the saved base matches the base
# commit, the release fragment, the build scripts and the compiler.
#
# The tree then goes back to where it was and the two folders are built
# there again (incremental builds), so that build/kernel-release never
# holds the base unannounced (on failure, their kernel and perf are
# removed). Nothing else may build from build/linux meanwhile. --stay
# leaves all three at the base, for the bisect (check/bisect.sh), whose
# first state this is and which builds on from it.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

kout=$BUILD/kernel-base
pout=$BUILD/perf-base
image=arch/x86/boot/bzImage
# What the saved base is made of: the commit, the release fragment, how
# kernels and perf are built (identity, flags, pinned features), the compiler.
stamp=$({
	kgit rev-parse "$BASE_TAG"
	cat "$ROOT/configs/release.config" "$ROOT/check/perf-features.txt" \
		"$ROOT/scripts/build-perf.sh" "$ROOT/scripts/build-kernel.sh" \
		"$ROOT/scripts/ccache-gcc.sh" "$ROOT/scripts/lib.sh"
	gcc --version
} | sha256sum | cut -d' ' -f1)

if [ -f "$kout/$image" ] && [ -x "$pout/perf" ] &&
	[ "$(cat "$kout/.stamp" 2>/dev/null)" = "$stamp" ]; then
	echo "base kernel and perf up to date: $kout, $pout"
	exit 0
fi

[ -z "$(kgit status --porcelain --untracked-files=no)" ] ||
	die "build/linux has uncommitted edits: commit or discard them first"
# The worktree earlier versions built the base in.
if [ -d "$BUILD/linux-base" ]; then
	kgit worktree remove --force "$BUILD/linux-base" 2>/dev/null ||
		rm -rf "$BUILD/linux-base"
	kgit worktree prune
fi

stay=${1:-}
orig=$(kgit symbolic-ref -q --short HEAD || kgit rev-parse HEAD)
# On failure or interruption, the release and perf folders may hold the
# base or something between: remove what would be booted or run (the
# objects stay for the next incremental build), after stopping the builds
# so none writes objects of the base once the tree is back.
finish() {
	local rc=$?
	trap - EXIT INT TERM
	if [ "$rc" != 0 ]; then
		kill_tree_below $$
		wait 2>/dev/null || true
		rm -f "$BUILD/kernel-release/$image" "$BUILD/perf/perf"
		echo "base build failed or was stopped: removed the release" \
			"kernel and perf, which may be of the base" >&2
	fi
	[ "$stay" = --stay ] || kgit checkout -q "$orig"
	exit "$rc"
}
trap finish EXIT
trap 'exit 130' INT TERM
kgit checkout -q --detach "$BASE_TAG"

rm -rf "$kout" "$pout"
"$ROOT/scripts/build-kernel.sh" release
"$ROOT/scripts/build-perf.sh"
mkdir -p "$kout/${image%/*}" "$pout"
cp "$BUILD/kernel-release/$image" "$kout/$image"
cp "$BUILD/kernel-release/.config" "$kout/.config"
cp "$BUILD/perf/perf" "$pout/perf"
echo "$stamp" >"$kout/.stamp"
ls -l "$kout/$image" "$pout/perf"
if [ "$stay" != --stay ]; then
	kgit checkout -q "$orig"
	"$ROOT/scripts/build-kernel.sh" release
	"$ROOT/scripts/build-perf.sh"
fi
