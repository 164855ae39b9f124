#!/usr/bin/env bash
# build-base-kernel.sh: the unpatched base kernel (release fragments) in
# build/kernel-base, from a worktree of the base commit in build/linux-base.
# For the tests of the series' perf on an old kernel and for make bench.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

base_src=$BUILD/linux-base
# A worktree left over from an earlier kernel tree is stale: re-create it.
if ! git -C "$base_src" rev-parse -q --verify HEAD >/dev/null 2>&1; then
	rm -rf "$base_src"
	git -C "$SRC" worktree prune
	git -C "$SRC" worktree add -q --detach "$base_src" "$BASE_TAG"
fi
git -C "$base_src" checkout -q --detach "$BASE_TAG"
KERNEL_OUT=$BUILD/kernel-base "$ROOT/scripts/build-kernel.sh" release "$base_src"
