#!/usr/bin/env bash
# Render the postings as they would be sent, into build/postings/<NN-name>/:
# git format-patch --cover-letter of each posting's commits (numbered
# [PATCH n/N], with base-commit: the posting before it, or the base), the
# cover letter's subject and text taken from patches/<NN-name>/cover-letter.txt
# (its first line "Subject: [PATCH 0/N] <subject>"), and git's shortlog and
# diffstat below them. Nothing here changes patches/ or the tree.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

case "$(tree_state)" in
synced) ;;
*) die "build/linux does not match patches/: run 'make tree' or 'make export' first" ;;
esac
out=$BUILD/postings
rm -rf "$out"
prev=$BASE_TAG
for p in $(postings); do
	letter=$PATCHES/$p/cover-letter.txt
	[ -f "$letter" ] || die "$p has no cover-letter.txt"
	n=$(kgit rev-list --count "$prev..posting/$p")
	subject=$(head -n 1 "$letter")
	case "$subject" in
	"Subject: [PATCH 0/$n] "*) subject=${subject#"Subject: [PATCH 0/$n] "} ;;
	*) die "$p/cover-letter.txt: the first line must be 'Subject: [PATCH 0/$n] ...' ($n patches)" ;;
	esac
	kgit format-patch -q --cover-letter --numbered --base="$prev" \
		-o "$out/$p" "$prev..posting/$p"
	SUBJECT=$subject python3 - "$out/$p/0000-cover-letter.patch" "$letter" <<'PY'
import os, sys
cover, letter = sys.argv[1], sys.argv[2]
text = open(letter).read().split('\n', 1)[1].lstrip('\n')
s = open(cover).read()
s = s.replace('*** SUBJECT HERE ***', os.environ['SUBJECT'], 1)
s = s.replace('*** BLURB HERE ***', text.rstrip('\n'), 1)
open(cover, 'w').write(s)
PY
	echo "$p: $n patches, base $(kgit rev-parse --short "$prev")"
	prev=posting/$p
done
note "postings in $out"
