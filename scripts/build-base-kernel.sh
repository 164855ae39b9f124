#!/usr/bin/env bash
# build-base-kernel.sh [--stay]: the unpatched base, for the base VM (the
# series' perf on an old kernel) and make bench: build/linux checked out at
# the base commit, the release kernel and perf built there in their usual
# folders (so nothing is built cold twice: the series' builds that follow
# are incremental), then saved to build/kernel-base (bzImage, .config) and
# build/perf-base (perf). Skipped while the saved base matches the base
# commit, the release fragments and perf's pinned features.
#
# The tree then goes back to its branch and the two folders back to the
# tip (incremental builds), so that build/kernel-release never holds the
# base unannounced. --stay leaves all three at the base, for the bisect
# (check/bisect.sh), whose first state this is and which builds on from it.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

kout=$BUILD/kernel-base
pout=$BUILD/perf-base
image=arch/x86/boot/bzImage
stamp=$({
	kgit rev-parse "$BASE_TAG"
	cat "$ROOT/configs/release.config" "$ROOT/check/perf-features.txt" \
		"$ROOT/scripts/build-perf.sh"
} | sha256sum | cut -d' ' -f1)

if [ -f "$kout/$image" ] && [ -x "$pout/perf" ] &&
	[ "$(cat "$kout/.stamp" 2>/dev/null)" = "$stamp" ]; then
	echo "base kernel and perf up to date: $kout, $pout"
	exit 0
fi

[ -z "$(kgit status --porcelain --untracked-files=no)" ] ||
	die "build/linux has uncommitted edits: commit or discard them first"
stay=${1:-}
if [ "$stay" != --stay ] && [ "$(kgit branch --show-current)" = "$BRANCH" ]; then
	trap 'kgit checkout -q "$BRANCH"' EXIT
fi
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
	kgit checkout -q "$BRANCH"
	"$ROOT/scripts/build-kernel.sh" release
	"$ROOT/scripts/build-perf.sh"
fi
