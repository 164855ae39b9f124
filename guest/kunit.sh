#!/bin/bash
# The series' KUnit suites, which the debug kernel runs at boot, as TAP:
# one result per test case, read from debugfs, with KUnit's messages for
# a failed case. A missing suite, a skipped case or a suite without cases
# fails: the kernel under test must have run them.
set -uo pipefail

# shellcheck source=guest/tap.sh
. "$(dirname "$0")/tap.sh"
suites=(perf_ring_buffer)
debugfs=/sys/kernel/debug

[ -d "$debugfs/kunit" ] || mount -t debugfs none "$debugfs" 2>/dev/null

for suite in "${suites[@]}"; do
	file=$debugfs/kunit/$suite/results
	if [ ! -r "$file" ]; then
		result 1 "$suite: suite ran" "no $file (CONFIG_KUNIT_DEBUGFS and the suite's option?)"
		continue
	fi
	cases=0 notes=''
	# Cases are the indented "ok N name" lines; the lines before one are
	# its messages.
	while IFS= read -r line; do
		line=${line#"${line%%[! ]*}"}
		case "$line" in
		'# Subtest:'* | '1..'* | '') ;;
		'ok '[0-9]*' '* | 'not ok '[0-9]*' '*)
			cases=$((cases + 1))
			status=1
			case "$line" in ok*) status=0 ;; esac
			case "$line" in *'# SKIP'*) status=1 ;; esac
			name=${line#*ok }
			name=${name#* }
			result "$status" "$suite.${name%% *}" "$notes"
			# What a passing case reports (kunit_info()) too.
			[ "$status" != 0 ] || [ -z "$notes" ] ||
				printf '%s' "$notes" | sed 's/^/# /'
			notes=''
			;;
		*) notes+="$line"$'\n' ;;
		esac
	done < <(sed -n 's/^    //p' "$file")
	[ "$cases" -gt 0 ]
	result $? "$suite: $cases cases ran" "$(cat "$file")"
done
tap_done
