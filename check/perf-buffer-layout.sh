#!/usr/bin/env bash
# perf-buffer-layout.sh: tail tracking must not move what every buffer's
# write path touches. Compiles the base's and the series' definitions of
# struct perf_buffer (kernel/events/internal.h) with the flags of one
# kernel build (the debug and the i386 one: 64 and 32 bits) and compares
# the offsets of the fields __perf_output_begin() and
# perf_output_put_handle() read and write first: those must not move.
# The struct may grow after them (tail tracking's state does): the
# fields at its end (user_page, data_pages), the size and the kmalloc
# bucket of a one-page buffer are shown, base against series.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

hot=(nr_pages overwrite paused head nest events wakeup lost watermark)
shown=(user_page data_pages)
fields=("${hot[@]}" "${shown[@]}")

# layout KERNEL_OUT INTERNAL_H: "field offset" lines, then "size N".
layout() {
	local kout=$1 internal=$2 cmd probe f
	probe=$(mktemp --suffix=.c)
	{
		echo '#include <linux/perf_event.h>'
		echo "#include \"$internal\""
		echo 'void perf_buffer_layout(void);'
		echo 'void perf_buffer_layout(void)'
		echo '{'
		for f in "${fields[@]}"; do
			echo "	asm volatile(\".ascii \\\"@@ $f %c0\\\"\" : : \"i\" (offsetof(struct perf_buffer, $f)));"
		done
		echo '	asm volatile(".ascii \"@@ size %c0\"" : : "i" (sizeof(struct perf_buffer)));'
		echo '}'
	} >"$probe"
	# The compiler command of ring_buffer.o, for this probe and to stdout.
	cmd=$(sed -n 's/^savedcmd_kernel\/events\/ring_buffer.o := //p' \
		"$kout/kernel/events/.ring_buffer.o.cmd")
	[ -n "$cmd" ] || die "no compile command in $kout: build it first"
	cmd=$(sed -E -e 's/-Wp,-MMD,[^ ]+//' \
		-e 's/ -c -o [^ ]+ [^ ]+ring_buffer\.c.*$//' <<<"$cmd")
	(cd "$kout" && eval "$cmd -S -o - $probe") | grep -o '@@ [a-z_]* [0-9]*' |
		cut -c4-
	rm -f "$probe"
}

base_internal=$(mktemp --suffix=.h)
trap 'rm -f "$base_internal"' EXIT
kgit show "$BASE_TAG:kernel/events/internal.h" >"$base_internal"
# bucket BYTES: the kmalloc size class that holds BYTES (powers of two,
# and 96 and 192).
bucket() {
	local b=8
	while [ "$b" -lt "$1" ]; do
		case $b in
		64) b=96 ;; 96) b=128 ;; 128) b=192 ;; 192) b=256 ;;
		*) b=$((b * 2)) ;;
		esac
	done
	echo "$b"
}

# field LAYOUT NAME: NAME's number in a layout() listing.
field() {
	awk -v f="$2" '$1 == f { print $2 }' <<<"$1"
}

bad=0
for kout in "$BUILD/kernel-debug" "$BUILD/kernel-i386"; do
	base=$(layout "$kout" "$base_internal")
	series=$(layout "$kout" "$SRC/kernel/events/internal.h")
	[ "$(wc -l <<<"$base")" -eq $((${#fields[@]} + 1)) ] ||
		die "could not read the layout with ${kout##*/}'s flags"
	moved=()
	for f in "${hot[@]}"; do
		[ "$(field "$base" "$f")" = "$(field "$series" "$f")" ] ||
			moved+=("$f $(field "$base" "$f") -> $(field "$series" "$f")")
	done
	if [ ${#moved[@]} -gt 0 ]; then
		echo "${kout##*/}: write-path fields of struct perf_buffer moved:"
		printf '  %s\n' "${moved[@]}"
		bad=1
		continue
	fi
	line="${kout##*/}: ${hot[*]} where they were;"
	for f in "${shown[@]}" size; do
		line+=" $f $(field "$base" "$f") -> $(field "$series" "$f")"
	done
	# One data page: the struct and one page pointer, the size of the
	# user_page pointer just before data_pages[].
	ptr=$(($(field "$base" data_pages) - $(field "$base" user_page)))
	line+="; one-page kmalloc-$(bucket $(( $(field "$base" size) + ptr )))"
	line+=" -> kmalloc-$(bucket $(( $(field "$series" size) + ptr )))"
	echo "$line"
done
exit "$bad"
