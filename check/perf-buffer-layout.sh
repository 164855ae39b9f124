#!/usr/bin/env bash
# perf-buffer-layout.sh: tail tracking must not move what every buffer's
# write path touches. Compiles the base's and the series' definitions of
# struct perf_buffer (kernel/events/internal.h) with the flags of one
# kernel build (the debug and the i386 one: 64 and 32 bits) and compares
# the offsets of the fields __perf_output_begin(), perf_output_put_handle()
# and the output copy use, and the size of the struct (its kmalloc bucket).
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

fields=(nr_pages overwrite paused head nest events wakeup lost watermark
	user_page data_pages)

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
bad=0
for kout in "$BUILD/kernel-debug" "$BUILD/kernel-i386"; do
	base=$(layout "$kout" "$base_internal")
	series=$(layout "$kout" "$SRC/kernel/events/internal.h")
	[ "$(wc -l <<<"$base")" -eq $((${#fields[@]} + 1)) ] ||
		die "could not read the layout with ${kout##*/}'s flags"
	if [ "$base" = "$series" ]; then
		echo "${kout##*/}: $(tr '\n' ' ' <<<"$series")"
	else
		echo "${kout##*/}: struct perf_buffer moved (base, series):"
		diff <(echo "$base") <(echo "$series") || true
		bad=1
	fi
done
exit "$bad"
