# shellcheck shell=bash
# Bisectability (sourced by check/run.sh): first the base itself (state 0:
# the base kernel and the base's perf, scripts/build-base-kernel.sh), then
# after every patch but the tip (unless a slow machine must skip it: see
# bisect_builds), build what that patch can break, each in the same
# output folder as the tip's build, so every build is incremental, and
# side by side:
#   for a patch that touches more than tools/, Documentation/ or
#     MAINTAINERS, the series' kernel code in the debug kernel's folder:
#     kernel/events/, and the series' objects elsewhere (arch/x86/events/
#     ds.o, trace_event_perf.o) if the patch touches them or a header
#     under include/; the code under lockdep, KASAN and DEBUG_LIST, and
#     the KUnit test, which only the debug config builds;
#   the whole release kernel at the last such patch of each posting (the
#     tip's is the tip stage's): every other includer of a changed header
#     compiles and the image links where a maintainer applies the
#     posting. Inside a posting a patch of a header shared by 190 of the
#     release kernel's 830 objects (linux/perf_event.h, through
#     syscalls.h) would rebuild them at each patch, two minutes a patch
#     on this 2-core machine; each such patch names the state where its
#     release kernel is built;
#   perf (-Werror), if it touches what perf is built from; for a patch
#     of its shell tests or documentation alone, only what perf's build
#     would do for it: shellcheck the scripts;
#   the perf_events kselftests, if it touches them, their harness, the
#     tools/ libraries they link (libperf, libapi) or the headers they
#     are built against.
# The release kernel's folder is the tip's: the base VM and make bench need
# the base built with it, so the bisect's first state is that build, and
# the tip stage finishes kernel-release from the last state it built.
# Check names carry the patch number: two patches may share a subject.

# A build of a state that passed is remembered (BISECT_CACHE, beside the
# ccache): a later run with the same source tree, fragments, build scripts,
# toolchain and installed packages does not build it again, and says so.
# The tree hash changes with any patch at or before the state, so an edit
# rebuilds its own state and every later one. CHECK_REBUILD=1 forgets.
BISECT_CACHE=${BISECT_CACHE:-$(dirname "$CCACHE_DIR")/flightrec-bisect}

# build_inputs: one hash of what any build depends on but the source tree:
# the fragments and scripts (of this one what a build runs, state_build
# and perf_scripts_check: which states it builds is no input of a build),
# the
# tools found on PATH and their versions (not all are Debian's), the
# installed packages, and the environment make and the compilers read.
build_inputs() {
	local t
	{
		cat "$ROOT"/configs/*.config "$ROOT/check/perf-features.txt" \
			"$ROOT"/scripts/build-*.sh "$ROOT/scripts/ccache-gcc.sh" \
			"$ROOT/scripts/lib.sh"
		declare -f state_build perf_scripts_check
		for t in gcc ld make shellcheck python3 ccache; do
			command -v "$t" && "$t" --version 2>&1 | head -n 1
		done
		dpkg-query -W
		# Whole names: CCACHE_BASEDIR names the clone, which must not
		# keep another clone of the same tree from the memory.
		env | grep -E '^(MAKEFLAGS|MFLAGS|CC|HOSTCC|CFLAGS|CPPFLAGS|LDFLAGS|KCFLAGS|KCPPFLAGS|EXTRA_[A-Z_]*|WERROR|NO_[A-Z_]*|ARCH|CROSS_COMPILE|LLVM|KBUILD_[A-Z_]*|O|W|V)=' |
			LC_ALL=C sort
	} | sha256sum | cut -d' ' -f1
}

# cached_check KEY NAME CMD...: check NAME CMD..., unless a build with the
# same KEY passed before; remember KEY when it passes.
cached_check() {
	local key=$1 name=$2
	shift 2
	if remembered "$key"; then
		echo "[ ok ] $name (not rebuilt: the same inputs built on $(cat "$BISECT_CACHE/$key"))"
		record PASS "$name (same inputs as a build that passed)"
		return
	fi
	if step "$name" "$@"; then
		record PASS "$name"
		mkdir -p "$BISECT_CACHE"
		date -u '+%F %H:%M' >"$BISECT_CACHE/$key"
	else
		record FAIL "$name"
	fi
}

# key KIND: the cache key of one build (KIND and its folders) of the state
# whose source tree is $tree, with the other inputs $inputs.
key() { echo "$1 $tree $inputs" | sha256sum | cut -d' ' -f1; }

# remembered KEY: a build of KEY passed before (never with CHECK_REBUILD).
remembered() { [ -z "${CHECK_REBUILD:-}" ] && [ -f "$BISECT_CACHE/$1" ]; }

# perf_scripts_check COMMIT [FROM]: what perf's build checks of the shell
# tests the commits FROM (COMMIT by default) to COMMIT change (tests/Build
# runs shellcheck -a -S warning on each executable one, from tools/perf;
# a library script it sources is not followed there, so not here either).
perf_scripts_check() {
	local c=$1 from=${2:-$1} f changed
	local -a files=()
	changed=$(kgit diff --name-only --diff-filter=d "$from^" "$c" -- 'tools/perf/tests/shell/*.sh') ||
		return
	while read -r f; do
		f=${f#tools/perf/}
		[ -z "$f" ] || [ ! -x "$SRC/tools/perf/$f" ] || files+=("$f")
	done <<<"$changed"
	[ ${#files[@]} -gt 0 ] || { echo "no executable shell test changed"; return 0; }
	(cd "$SRC/tools/perf" && shellcheck -a -S warning "${files[@]}") &&
		printf 'shellcheck: %s\n' "${files[@]}"
}

# touches COMMIT PATHSPEC...: the commit changes a file under PATHSPEC.
touches() {
	local c=$1
	shift
	! kgit diff --quiet "$c^" "$c" -- "$@"
}

# state_builds COMMIT: what the bisect builds after COMMIT, one word each:
# "kernel" (the series' kernel code in the debug kernel's folder, and at
# the last such commit of a posting the release kernel), "perf" or
# "perf-scripts" (its shell tests only), "selftests"; nothing for a commit
# that touches none of their sources.
state_builds() {
	local c=$1
	! touches "$c" ':!tools/' ':!Documentation/' ':!MAINTAINERS' || echo kernel
	# A patch of perf's shell tests or documentation alone leaves the
	# binary as it was: perf's build would only shellcheck the scripts.
	# (tests/shell/coresight has C sources perf's build compiles.)
	if touches "$c" tools/perf tools/lib tools/include tools/arch \
		tools/build tools/scripts ':!tools/perf/tests/shell/*.sh' \
		':!tools/perf/Documentation'; then
		echo perf
	elif touches "$c" tools/perf/tests/shell; then
		echo perf-scripts
	fi
	# The selftests link libperf and libapi (tools/lib) and include the
	# kselftest harness, tools/include and the uapi headers.
	! touches "$c" tools/testing/selftests/perf_events \
		tools/testing/selftests/kselftest.h \
		tools/testing/selftests/kselftest_harness.h \
		tools/testing/selftests/lib.mk tools/lib tools/include \
		include/uapi || echo selftests
}

# series_kernel_objects: the objects of the kernel C files the series
# changes outside kernel/events/, which the debug build compiles whole.
series_kernel_objects() {
	kgit diff --name-only --diff-filter=d "$BASE_TAG" "$BRANCH" -- '*.c' \
		':!tools/' ':!Documentation/' ':!scripts/' ':!samples/' \
		':!kernel/events/' | sed 's/\.c$/.o/'
}

# debug_targets COMMIT OBJECTS...: what the debug kernel's folder builds
# after COMMIT: kernel/events/, and each of the series' other OBJECTS that
# exists there if COMMIT changes its source or a header they include.
debug_targets() {
	local c=$1 o targets=kernel/events/
	shift
	for o in "$@"; do
		kgit cat-file -e "$c:${o%.o}.c" 2>/dev/null || continue
		! touches "$c" "${o%.o}.c" include/ 'arch/*/include/*' || targets+=" $o"
	done
	echo "$targets"
}

# release_states: reads "POSTING COMMIT BUILDS..." lines, one a state in
# order, the tip last; prints "COMMIT AT" for each state that touches the
# kernel, AT being the commit whose state builds its release kernel: the
# last one of its posting that touches the kernel (itself there; the tip
# if that is the tip, whose build is the tip stage's). Without postings
# (POSTING "."), every such state builds its own.
release_states() {
	local p c rest
	local -a order
	local -A last_of posting
	while read -r p c rest; do
		[[ " $rest " == *" kernel "* ]] || continue
		order+=("$c") posting[$c]=$p
		[ "$p" = . ] || last_of[$p]=$c
	done
	for c in "${order[@]}"; do
		p=${posting[$c]}
		if [ "$p" = . ]; then echo "$c $c"; else echo "$c ${last_of[$p]}"; fi
	done
}

# posting_ends: reads "POSTING COMMIT" lines in order, the tip last;
# prints "COMMIT END" for each commit but the tip, END being the last
# commit of its posting (the tip's posting ends at the tip, the tip
# stage's). Without postings (POSTING "."), each commit is its own end.
posting_ends() {
	local p c
	local -a order
	local -A last_of posting
	while read -r p c; do
		order+=("$c") posting[$c]=$p
		[ "$p" = . ] || last_of[$p]=$c
	done
	[ ${#order[@]} -eq 0 ] || unset 'order[-1]'
	for c in "${order[@]}"; do
		p=${posting[$c]}
		if [ "$p" = . ]; then echo "$c $c"; else echo "$c ${last_of[$p]}"; fi
	done
}

# Seconds a must state takes on the machine CHECKPATCH_MS is measured
# on (check/run.sh): the release kernel's (2:15 on a machine 1.5 times
# slower) or the rest's (perf, 40 s or less there); a state between them
# is counted as the rest.
MUST_KERNEL_NEED=${MUST_KERNEL_NEED:-90}
MUST_OTHER_NEED=${MUST_OTHER_NEED:-30}

# state_verdict LEFT RESERVE HEADROOM CLASS: what to do with a state when
# LEFT seconds of the budget are left, RESERVE of them for the stages
# after the bisect, HEADROOM for this state and the must states after it.
# CLASS free (the memory holds each of its builds: it costs nothing) is
# built; below RESERVE, any other is refused; CLASS must (the last state
# of its posting, or where its posting's release kernel is built) is
# built; CLASS other only while LEFT covers RESERVE and HEADROOM too, and
# skipped below that: a slow machine then builds each posting's end, and
# each skipped state is named. Prints build, skip or refuse.
state_verdict() {
	local left=$1 reserve=$2 headroom=$3 class=$4
	if [ "$class" = free ]; then
		echo build
	elif [ "$left" -lt "$reserve" ]; then
		echo refuse
	elif [ "$class" = must ] || [ "$left" -ge $((reserve + headroom)) ]; then
		echo build
	else
		echo skip
	fi
}

# state_build KIND COMMIT: one build of the checked-out state COMMIT:
# kernel (the release kernel), "debug DIRS" (those folders of the debug
# kernel), perf, "perf-scripts FROM" (the shell tests FROM to COMMIT
# changed), selftests.
state_build() {
	case "$1" in
	kernel) "$ROOT/scripts/build-kernel.sh" release ;;
	"debug "*) KERNEL_TARGETS=${1#debug } "$ROOT/scripts/build-kernel.sh" debug ;;
	perf) "$ROOT/scripts/build-perf.sh" ;;
	"perf-scripts "*) perf_scripts_check "$2" "${1#perf-scripts }" ;;
	selftests) "$ROOT/scripts/build-selftests.sh" ;;
	*) die "no build '$1'" ;;
	esac
}

# bisect_builds RESERVE [PCT]: build each state as state_verdict says,
# PCT being how much slower than the MUST_*_NEED's machine this one is.
# What a skipped state would have built is built by the next must state
# (in the tip's posting, the tip's builds), at that state's tree: perf,
# the selftests, the debug folders and the shell tests it changed; those
# builds are named for the skipped states too, and so is a refusal of
# that state. A refused state is counted as failed, a skipped one as
# skipped, both named.
bisect_builds() {
	local reserve=$1 pct=${2:-100} c commits i total tag subject dirs builds tree kind inputs at
	local verdict head class left k name nm carry=0 also
	local -a wants posting objects headroom next_must
	local -A posting_of builds_of release_at tag_of end_of
	# Carried from skipped states to the next one built: what they would
	# have built, from which state on, and their numbers.
	local pend_dirs='' pend_perf='' pend_selftests='' pend_scripts='' pend_from='' pend_nums=''
	mapfile -t commits < <(kgit rev-list --reverse "$BASE_TAG..$BRANCH")
	total=${#commits[@]}
	tag=$(printf 'bisect 00/%02d' "$total")
	if [ "$(remaining)" -lt "$reserve" ]; then
		record FAIL "$tag kernel-base (not built: no time left for the stages after it)"
	else
		check "$tag kernel-base: the unpatched kernel and perf" \
			"$ROOT/scripts/build-base-kernel.sh" --stay
	fi
	[ "$total" -gt 0 ] || return 0
	mapfile -t objects < <(series_kernel_objects)
	# Each state is named by its posting too (scripts/lib.sh).
	while read -r -a posting; do
		posting_of[${posting[1]}]=${posting[0]}
	done < <(posting_of_commits)
	[ -z "${CHECK_REBUILD:-}" ] || rm -rf "$BISECT_CACHE"
	inputs=$(build_inputs)
	for ((i = 0; i < total; i++)); do
		c=${commits[$i]}
		tag=$(printf 'bisect %02d/%02d' $((i + 1)) "$total")
		[ "${posting_of[$c]:-.}" = . ] || tag+=" [${posting_of[$c]}]"
		tag_of[$c]=$tag
		builds_of[$c]=" $(state_builds "$c" | tr '\n' ' ')"
	done
	while read -r c at; do
		release_at[$c]=$at
	done < <(for c in "${commits[@]}"; do
		echo "${posting_of[$c]:-.} $c ${builds_of[$c]}"
	done | release_states)
	while read -r c at; do
		end_of[$c]=$at
	done < <(for c in "${commits[@]}"; do
		echo "${posting_of[$c]:-.} $c"
	done | posting_ends)
	# headroom[i]: what the must states from state i on take;
	# next_must[i]: the first must state after state i (the tip's
	# builds: the tip).
	headroom[total - 1]=0
	nm=${commits[total - 1]}
	for ((i = total - 2; i >= 0; i--)); do
		c=${commits[$i]}
		next_must[i]=$nm
		head=0
		if [ "${release_at[$c]:-}" = "$c" ]; then
			head=$MUST_KERNEL_NEED nm=$c
		elif [ "${end_of[$c]}" = "$c" ]; then
			head=$MUST_OTHER_NEED nm=$c
		fi
		headroom[i]=$((headroom[i + 1] + head * pct / 100))
	done
	for ((i = 0; i < total - 1; i++)); do
		c=${commits[$i]}
		tag=${tag_of[$c]}
		subject=$(kgit log -1 --format=%s "$c")
		tree=$(kgit rev-parse "$c^{tree}")
		builds=${builds_of[$c]}
		# Its own builds, and what skipped states before it left.
		dirs=$pend_dirs
		[[ $builds != *" kernel "* ]] ||
			dirs+=" $(debug_targets "$c" "${objects[@]}")"
		dirs=$(tr ' ' '\n' <<<"$dirs" | sed '/^$/d' | LC_ALL=C sort -u | tr '\n' ' ')
		dirs=${dirs% }
		wants=()
		[ -z "$dirs" ] || wants+=("debug $dirs")
		[ "${release_at[$c]:-}" != "$c" ] || wants+=(kernel)
		if [[ $builds == *" perf "* ]] || [ -n "$pend_perf" ]; then
			wants+=(perf)
		elif [[ $builds == *" perf-scripts "* ]] || [ -n "$pend_scripts" ]; then
			wants+=("perf-scripts ${pend_from:-$c}")
		fi
		[[ $builds != *" selftests "* ]] && [ -z "$pend_selftests" ] || wants+=(selftests)
		class=other
		if [ "${end_of[$c]}" = "$c" ] || [ "${release_at[$c]:-}" = "$c" ]; then
			class=must
		fi
		k=free
		for kind in "${wants[@]}"; do
			remembered "$(key "$kind")" || k=$class
		done
		class=$k
		# The skipped states' builds it takes on cost time too.
		also=''
		[ -z "$pend_nums" ] || also=" (and what states ${pend_nums%, } changed)"
		left=$(remaining)
		verdict=$(state_verdict "$left" "$reserve" \
			$((headroom[i + 1] + carry + MUST_OTHER_NEED * pct / 100)) "$class")
		case "$verdict" in
		refuse)
			record FAIL "$tag $subject$also (not built: no time left for the stages after it)"
			pend_dirs='' pend_perf='' pend_selftests='' pend_scripts='' pend_from='' pend_nums='' carry=0
			continue
			;;
		skip)
			at=${next_must[i]}
			if [ "$at" = "${commits[total - 1]}" ]; then
				at="the tip's builds (the builds and tip stages) build"
			else
				at="${tag_of[$at]} builds"
			fi
			record SKIP "$tag $subject (not built: the time left is kept for the" \
				"last state of each posting; $at what it changed)"
			pend_nums+="$(printf '%02d' $((i + 1))), "
			carry=$((carry + MUST_OTHER_NEED * pct / 100))
			pend_dirs=$dirs
			[[ $builds != *" perf "* ]] || pend_perf=1
			[[ $builds != *" selftests "* ]] || pend_selftests=1
			if [[ $builds == *" perf-scripts "* ]]; then
				pend_scripts=1
				pend_from=${pend_from:-$c}
			fi
			continue
			;;
		esac
		pend_dirs='' pend_perf='' pend_selftests='' pend_scripts='' pend_from='' pend_nums='' carry=0
		# Checked out only if something is to be built.
		for kind in "${wants[@]}"; do
			if ! remembered "$(key "$kind")"; then
				kgit checkout -q --detach "$c"
				break
			fi
		done
		if [[ $builds == *" kernel "* ]] && [ "${release_at[$c]}" != "$c" ]; then
			at=${release_at[$c]}
			if [ "$at" = "${commits[total - 1]}" ]; then
				echo "    $tag: its release kernel is the tip's (the tip stage)"
			else
				echo "    $tag: its release kernel is built at ${tag_of[$at]}," \
					"the last kernel patch of its posting"
			fi
		elif [ -z "$dirs" ]; then
			echo "    $tag: only tools/, Documentation/ or MAINTAINERS: kernel not rebuilt"
		fi
		# The builds of a state side by side: each has its own output
		# folder, and the links, kallsyms passes and compression of one
		# are serial, so another keeps the second core busy.
		for kind in "${wants[@]}"; do
			case "$kind" in
			"debug "*) dirs=${kind#debug } name="debug ${dirs// /, }" ;;
			"perf-scripts "*) name=perf-scripts ;;
			*) name=$kind ;;
			esac
			cached_check "$(key "$kind")" "$tag $name$also: $subject" \
				state_build "$kind" "$c" &
		done
		wait
	done
	kgit checkout -q "$BRANCH"
}
