#!/bin/bash
# The series' perf against the base kernel's own perf, both on the
# unpatched base kernel, as TAP: perf stat, record, script, report and
# evlist give the same results with cpu-clock and task-clock, and with the
# raw type of the base kernel's dynamic PMUs. The series adds an attr.type
# constant (PERF_TYPE_PERSISTENT) to enum perf_type_id: a perf that takes
# a type below its PERF_TYPE_MAX for a legacy one, or a type that is the
# new constant for a persistent event, misreads the dynamic PMU types of
# an old kernel, where 6 is the first of them.
# Counts differ from run to run (TCG): only their shape is compared, and
# what the two perfs read from one perf.data file must be identical.
set -uo pipefail

# shellcheck source=guest/tap.sh
. "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

base=${BUILD:?}/perf-base/perf
series=$(command -v perf)
perfs=(base series)
declare -A bin=([base]=$base [series]=$series)

echo "# kernel $(uname -r); base: $("$base" version 2>&1 | head -n 1);" \
	"series: $(perf version 2>&1)"
# A missing base perf fails the run, it is no skip.
out=$("$base" version 2>&1) && ! cmp -s "$base" "$series"
result $? "the base kernel's perf runs, and is not the series' perf" \
	"$base: $out (make kernel-base builds it)"
[ -x "$base" ] || tap_done

cp /bin/bash "$tmp/spin"
# shellcheck disable=SC2016 # the loop runs in spin
spin=("$tmp/spin" -c 'i=0; while [ $i -lt 5000 ]; do i=$((i+1)); done')

# same NAME A B: files A and B are identical and not empty (A and B may
# be pipes: each is read once). A failure shows the start of the diff.
same() {
	local name=$1 a b rc=0 out
	a=$(cat "$2") b=$(cat "$3")
	out=$(diff -u <(printf '%s\n' "$a") <(printf '%s\n' "$b") | head -n 40) ||
		rc=1
	[ -n "$a" ] || { rc=1 out="empty output${out:+; }$out"; }
	result "$rc" "$name" "$out"
}
# stat_shape FILE: fields, unit, event and metric unit of each count
# line of perf stat -x, output.
stat_shape() { awk -F, '!/^#/ && NF > 1 { print NF, $2, $3, $NF }' "$1"; }
# counts FILE N: perf stat -x, output with N counts, each non-zero.
counts() {
	awk -F, -v want="$2" '!/^#/ && NF > 1 { n++; if ($1 + 0 <= 0) bad = 1 }
		END { exit bad || n != want }' "$1"
}
# record PERF TAG EVENT...: perf record of the workload into $tmp/TAG.data,
# its errors and exit status in $tmp/TAG.rec; fails as perf record does.
record() {
	local perf=$1 tag=$2 rc
	shift 2
	"$perf" record -q "$@" -c 1000000 --period --sample-cpu \
		-o "$tmp/$tag.data" -- "${spin[@]}" >/dev/null 2>"$tmp/$tag.rec"
	rc=$?
	echo "exit $rc" >>"$tmp/$tag.rec"
	return "$rc"
}
# has_spin REPORT: perf report output (--sort comm,...) names the workload.
has_spin() { grep -qE '%( +[0-9]+)? +spin ' "$1"; }
# read_all FILE TAG: perf script (default and chosen fields), report and
# evlist -v of FILE with each perf, into $tmp/TAG.<what>.<perf>. Fields
# and sort keys depend on the file only (no perf version, no time of
# reading). The two perfs read side by side (the guest has 2 CPUs).
read_all() {
	local f=$1 tag=$2 p
	for p in "${perfs[@]}"; do
		{
			"${bin[$p]}" script -i "$f" >"$tmp/$tag.script.$p" 2>&1
			"${bin[$p]}" script -i "$f" \
				-F comm,pid,tid,cpu,time,event,period,ip,sym,dso \
				>"$tmp/$tag.script-F.$p" 2>&1
			"${bin[$p]}" report -i "$f" --stdio -n --sort comm,dso,sym \
				>"$tmp/$tag.report.$p" 2>&1
			"${bin[$p]}" evlist -v -i "$f" >"$tmp/$tag.evlist.$p" 2>&1
		} &
	done
	wait
}
# compare_all TAG WHAT: read_all's outputs are the same with both perfs.
compare_all() {
	local tag=$1 what=$2 x
	for x in script script-F report evlist; do
		same "perf ${x/-F/ -F} of $what: the same with both perfs" \
			"$tmp/$tag.$x.base" "$tmp/$tag.$x.series"
	done
}
# names_types FILE: "name type" of each event in perf evlist -v output.
names_types() { sed -n 's/^\([^:]*\): type: \([0-9]*\).*/\1 \2/p' "$1"; }

# --- perf stat: same events, fields and units; counts are not compared.
for p in "${perfs[@]}"; do
	"${bin[$p]}" stat -x, -o "$tmp/stat.$p" -e cpu-clock,task-clock \
		-- "${spin[@]}" >/dev/null 2>"$tmp/stat.$p.err"
	stat_shape "$tmp/stat.$p" >"$tmp/stat.$p.shape"
done
same "perf stat -x, -e cpu-clock,task-clock: same events, fields and units" \
	"$tmp/stat.base.shape" "$tmp/stat.series.shape"
counts "$tmp/stat.base" 2 && counts "$tmp/stat.series" 2
result $? "perf stat: both perfs count cpu-clock and task-clock (non-zero)" \
	"$(cat "$tmp"/stat.base "$tmp"/stat.base.err "$tmp"/stat.series \
		"$tmp"/stat.series.err)"

# --- perf record with each perf; each file read by both perfs.
printf '%s\n' "cpu-clock 1" "task-clock 1" >"$tmp/clocks.want"
for p in "${perfs[@]}"; do
	record "${bin[$p]}" "$p" -e cpu-clock -e task-clock
	rc=$?
	read_all "$tmp/$p.data" "$p"
	[ "$rc" != 0 ] || has_spin "$tmp/$p.report.base" || rc=1
	result "$rc" "perf record -e cpu-clock -e task-clock with the $p perf" \
		"$(cat "$tmp/$p.rec" "$tmp/$p.report.base" | head -n 40)"
	compare_all "$p" "the $p perf's file"
	same "perf evlist -v of the $p perf's file: cpu-clock, task-clock, type 1" \
		"$tmp/clocks.want" <(names_types "$tmp/$p.evlist.base")
done
same "perf record: the series' perf opens the events as the base perf does" \
	"$tmp/base.evlist.base" "$tmp/series.evlist.base"

# --- Dynamic PMUs by their raw type (-e TYPE:CONFIG), an event each.
# pmu_event DIR: "TYPE:CONFIG NAME" of the PMU's first plain event (event=N
# over config:LO-HI).
pmu_event() {
	local d=$1 e v lo
	lo=$(sed -n 's/^config:\([0-9]*\)\(-[0-9]*\)\{0,1\}$/\1/p' \
		"$d/format/event" 2>/dev/null)
	[ -n "$lo" ] || return 1
	for e in "$d"/events/*; do
		case "$e" in *.unit | *.scale | *.per-pkg | *.snapshot) continue ;; esac
		v=$(sed -n 's/^event=\(0x[0-9a-fA-F]*\|[0-9]*\)$/\1/p' "$e" 2>/dev/null)
		[ -n "$v" ] || continue
		printf '%d:%#x %s/%s/\n' "$(cat "$d/type")" $((v << lo)) \
			"${d##*/}" "${e##*/}"
		return 0
	done
	return 1
}
# pmu_events: each PMU in sysfs of type 6 or more with a plain event (not
# kprobe and uprobe: they take a probe), and type 6 itself if sysfs has
# none (on 6.12, the cpu-clock PMU: dynamic, without a name).
pmu_events() {
	local d t six=''
	for d in /sys/bus/event_source/devices/*; do
		t=$(cat "$d/type")
		[ "$t" -ge 6 ] 2>/dev/null || continue
		[ "$t" != 6 ] || six=1
		pmu_event "$d"
	done
	[ -n "$six" ] || echo "6:0 type 6, no name in sysfs"
}
mapfile -t events < <(pmu_events)
for line in "${events[@]}"; do
	ev=${line%% *} what="-e $ev (${line#* })"
	# Only an event that the base perf counts: none, no line.
	"$base" stat -x, -o "$tmp/pmu.base" -e "$ev" -- "${spin[@]}" \
		>/dev/null 2>&1 || continue
	counts "$tmp/pmu.base" 1 || continue
	"$series" stat -x, -o "$tmp/pmu.series" -e "$ev" -- "${spin[@]}" \
		>/dev/null 2>"$tmp/pmu.series.err"
	counts "$tmp/pmu.series" 1
	result $? "perf stat $what: the series' perf counts it" \
		"$(cat "$tmp/pmu.series" "$tmp/pmu.series.err")"
	same "perf stat $what: same event, fields and units" \
		<(stat_shape "$tmp/pmu.base") <(stat_shape "$tmp/pmu.series")
	# A PMU that samples: the base perf's file read by both perfs, and
	# the series' perf records the same events. One that only counts:
	# both perfs refuse it alike.
	if record "$base" pmu.base -e "$ev"; then
		read_all "$tmp/pmu.base.data" pmu
		compare_all pmu "$what, the base perf's file"
		record "$series" pmu.series -e "$ev"
		rc=$?
		"$base" report -i "$tmp/pmu.series.data" --stdio -n \
			--sort comm,dso,sym >"$tmp/pmu.series.report" 2>&1
		[ "$rc" != 0 ] || has_spin "$tmp/pmu.series.report" || rc=1
		result "$rc" "perf record $what with the series' perf" \
			"$(cat "$tmp/pmu.series.rec" "$tmp/pmu.series.report" | head -n 40)"
		"$base" evlist -v -i "$tmp/pmu.series.data" >"$tmp/pmu.series.evlist" 2>&1
		same "perf record $what: the series' perf opens it as the base perf does" \
			"$tmp/pmu.evlist.base" "$tmp/pmu.series.evlist"
	else
		record "$series" pmu.series -e "$ev"
		same "perf record $what: both perfs refuse it alike" \
			"$tmp/pmu.base.rec" "$tmp/pmu.series.rec"
	fi
done
echo "# $SECONDS s"
tap_done
