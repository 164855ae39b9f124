#!/usr/bin/env bash
# Every shell script of the tooling passes shellcheck.
set -euo pipefail
cd "$(dirname "$0")/../.."
mapfile -t files < <(git ls-files -co --exclude-standard '*.sh' .ci/run)
shellcheck -x "${files[@]}"
echo "shellcheck: ${#files[@]} files clean"
