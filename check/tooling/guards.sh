#!/usr/bin/env bash
# The two commands fail at once, with a message, where they cannot work:
# a repository path with a space or a comma (QEMU's -fsdev and the kernel
# command line split there), and a user other than root.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

for bad in "with space" "with,comma"; do
	mkdir -p "$tmp/$bad"
	cp -r "$root/scripts" "$root/check" "$root/base.conf" "$tmp/$bad/"
	for cmd in check/run.sh scripts/demo.sh; do
		if out=$(bash "$tmp/$bad/$cmd" 2>&1); then
			fail "$cmd ran from '$tmp/$bad'"
		fi
		grep -q "has a space or a comma" <<<"$out" ||
			fail "$cmd from '$tmp/$bad' said: $out"
	done
done

for cmd in check/run.sh scripts/demo.sh; do
	if out=$(setpriv --reuid=nobody --regid=nogroup --clear-groups \
		env BUILD_DIR="$tmp/build" bash "$root/$cmd" 2>&1); then
		fail "$cmd ran as nobody"
	fi
	grep -q "run as root" <<<"$out" || fail "$cmd as nobody said: $out"
done
echo "guards: paths with a space or a comma and non-root users refused"
