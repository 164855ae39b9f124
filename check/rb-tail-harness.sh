#!/usr/bin/env bash
# rb-tail-harness.sh: the kernel's tail-tracking reservation
# (kernel/events/rb_tail.h of the tree) built into check/rb-tail-harness.c,
# which interrupts it with nested writers before its accesses and checks
# what a reader relies on. Runs 64- and 32-bit builds, from position 0 and
# just below the wrap, over buffers of 1, 2 and 4 pages, and once more
# with a header broken halfway; then plants each bug below into a copy of
# rb_tail.h and wants the harness to catch it.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

header=$SRC/kernel/events/rb_tail.h
[ -r "$header" ] || die "no $header: make tree first"
out=$BUILD/rb-tail-harness
mkdir -p "$out/bug"

# build NAME INCLUDE_DIR [CFLAGS...]
build() {
	local name=$1 inc=$2
	shift 2
	gcc -O2 -Wall -Wextra -Werror -I"$inc" "$@" -o "$out/$name" \
		"$ROOT/check/rb-tail-harness.c"
}

# run BINARY [SCALE]: every configuration, a fixed seed each, rounds
# divided by SCALE; stops at a failure. Every hook checks the whole
# buffer, so larger buffers get fewer rounds.
run() {
	local bin=$1 scale=${2:-1} conf pages rounds start bad seed=1
	for bad in "" bad-header; do
		for start in 0 wrap; do
			for conf in 1:1500 2:1000 4:250; do
				pages=${conf%:*} rounds=$((${conf#*:} / scale))
				"$bin" "$seed" "$rounds" "$pages" "$start" $bad ||
					return 1
				seed=$((seed + 1))
			done
		done
	done
}

build harness "$(dirname "$header")"
build harness32 "$(dirname "$header")" -m32
run "$out/harness"
run "$out/harness32"

# The planted bugs: a perl substitution of rb_tail.h each, and what breaks.
# shellcheck disable=SC2016 # $1... are perl's, not the shell's
planted=(
	's/limit = outermost \? start : READ_ONCE\(t->complete\);/limit = start;/'
	'nested writers drop records a writer they interrupted is writing'
	's/if \(READ_ONCE\(t->busy\)\)\n\t\treturn false;//'
	'a writer moves the tail while the one it interrupted moves it'
	's/(\tWRITE_ONCE\(up->data_overwritten, t->overwritten\);\n)(.*?)(\tWRITE_ONCE\(up->data_tail, pos\);\n)/$3$2$1/s'
	'the count is stored after the tail (G)'
	's/(\tWRITE_ONCE\(up->data_tail, pos\);\n)(.*?)(\tWRITE_ONCE\(t->end, pos \+ data_size\);\n)/$3$2$1/s'
	'the room is opened before the tail is published (E)'
	's/while \(\(long\)\(need - \*pos\) > 0\)/while ((long)(need - *pos) > 8)/'
	'the walk stops short of what the record needs'
	's/\*offset = start \+ size - \(unsigned long\)keep \* rec;/*offset = start;/'
	'a batch larger than the buffer writes its records at the wrong place'
	's/if \(unlikely\(\(long\)\(end - READ_ONCE\(rb->tail.end\)\) > 0\)\)/if (unlikely((long)(end - READ_ONCE(rb->tail.end)) > 8))/'
	'the fast path lets a record pass the tail'
	's/\*pos = limit;\n\t\t\treturn \(long\)\(need - limit\) <= 0;/return false;/'
	'a bad header makes the buffer refuse every record from then on'
)
bad=0
for ((i = 0; i < ${#planted[@]}; i += 2)); do
	what=${planted[i + 1]}
	perl -0pe "${planted[i]}" "$header" >"$out/bug/rb_tail.h"
	if cmp -s "$header" "$out/bug/rb_tail.h"; then
		echo "planted bug $((i / 2 + 1)) no longer applies to rb_tail.h: $what"
		bad=1
		continue
	fi
	build planted "$out/bug"
	if run "$out/planted" 5 >/dev/null 2>"$out/planted.err"; then
		echo "planted bug $((i / 2 + 1)) not caught: $what"
		bad=1
	else
		echo "planted bug $((i / 2 + 1)) caught ($what): $(tail -1 "$out/planted.err")"
	fi
done
exit "$bad"
