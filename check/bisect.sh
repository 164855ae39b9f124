# shellcheck shell=bash
# Bisectability (sourced by check/run.sh): first the base itself (state 0:
# the base kernel and the base's perf, scripts/build-base-kernel.sh), then
# after every patch but the tip, build what that patch can break, each in
# the same output folder as the tip's build, so every build is incremental,
# and side by side:
#   the release kernel, unless the patch touches only tools/,
#     Documentation/ or MAINTAINERS; and then kernel/events/ (and
#     arch/x86/events/ if the patch touches it) in the debug kernel's
#     folder: the series' code under lockdep, KASAN and DEBUG_LIST, and
#     its KUnit test, which only the debug config builds;
#   perf (-Werror), if it touches what perf is built from; for a patch
#     of its shell tests or documentation alone, only what perf's build
#     would do for it: shellcheck the scripts;
#   the perf_events kselftests, if it touches them, their harness, the
#     tools/ libraries they link (libperf, libapi) or the headers they
#     are built against.
# The release kernel, not the debug one: the base VM and make bench need
# the base built with it, so the bisect's first state is that build, and
# the tip stage finishes kernel-release from the last state. Check names
# carry the patch number: two patches may share a subject.

# A build of a state that passed is remembered (BISECT_CACHE, beside the
# ccache): a later run with the same source tree, fragments, build scripts,
# toolchain and installed packages does not build it again, and says so.
# The tree hash changes with any patch at or before the state, so an edit
# rebuilds its own state and every later one. CHECK_REBUILD=1 forgets.
BISECT_CACHE=${BISECT_CACHE:-$(dirname "$CCACHE_DIR")/flightrec-bisect}

# build_inputs: one hash of what any build depends on but the source tree:
# the fragments and scripts (this one too: it runs the shellcheck), the
# tools found on PATH and their versions (not all are Debian's), the
# installed packages, and the environment make and the compilers read.
build_inputs() {
	local t
	{
		cat "$ROOT"/configs/*.config "$ROOT/check/perf-features.txt" \
			"$ROOT"/scripts/build-*.sh "$ROOT/scripts/ccache-gcc.sh" \
			"$ROOT/scripts/lib.sh" "$ROOT/check/bisect.sh"
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
	if [ -z "${CHECK_REBUILD:-}" ] && [ -f "$BISECT_CACHE/$key" ]; then
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

# perf_scripts_check COMMIT: what perf's build checks of the shell tests
# the commit changes (tests/Build: shellcheck -a -S warning on each
# executable one, from tools/perf; a library script it sources is not
# followed there, so not here either).
perf_scripts_check() {
	local c=$1 f changed
	local -a files=()
	changed=$(kgit diff --name-only --diff-filter=d "$c^" "$c" -- 'tools/perf/tests/shell/*.sh') ||
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
# "kernel" (the release kernel and kernel/events/ of the debug one),
# "x86-events" (arch/x86/events/ of the debug one too), "perf" or
# "perf-scripts" (its shell tests only), "selftests"; nothing for a commit
# that touches none of their sources.
state_builds() {
	local c=$1
	if touches "$c" ':!tools/' ':!Documentation/' ':!MAINTAINERS'; then
		echo kernel
		! touches "$c" arch/x86/events || echo x86-events
	fi
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

# bisect_builds RESERVE: stop building once fewer than RESERVE seconds of
# the budget are left; what was not built is counted as failed.
bisect_builds() {
	local reserve=$1 c commits i total tag subject dirs builds tree kind inputs
	local -a wants posting
	local -A posting_of
	mapfile -t commits < <(kgit rev-list --reverse "$BASE_TAG..$BRANCH")
	# Each state is named by its posting too (scripts/lib.sh).
	while read -r -a posting; do
		posting_of[${posting[1]}]=${posting[0]}
	done < <(posting_of_commits)
	[ -z "${CHECK_REBUILD:-}" ] || rm -rf "$BISECT_CACHE"
	inputs=$(build_inputs)
	total=${#commits[@]}
	tag=$(printf 'bisect 00/%02d' "$total")
	if [ "$(remaining)" -lt "$reserve" ]; then
		record FAIL "$tag kernel-base (not built: no time left for the stages after it)"
	else
		check "$tag kernel-base: the unpatched kernel and perf" \
			"$ROOT/scripts/build-base-kernel.sh" --stay
	fi
	for ((i = 0; i < total - 1; i++)); do
		c=${commits[$i]}
		tag=$(printf 'bisect %02d/%02d' $((i + 1)) "$total")
		[ "${posting_of[$c]:-.}" = . ] || tag+=" [${posting_of[$c]}]"
		subject=$(kgit log -1 --format=%s "$c")
		if [ "$(remaining)" -lt "$reserve" ]; then
			record FAIL "$tag $subject (not built: no time left for the stages after it)"
			continue
		fi
		tree=$(kgit rev-parse "$c^{tree}")
		builds=" $(state_builds "$c" | tr '\n' ' ')"
		dirs=kernel/events/
		[[ $builds != *" x86-events "* ]] || dirs+=" arch/x86/events/"
		wants=()
		[[ $builds != *" kernel "* ]] || wants+=(kernel "debug $dirs")
		[[ $builds != *" perf "* ]] || wants+=(perf)
		[[ $builds != *" perf-scripts "* ]] || wants+=(perf-scripts)
		[[ $builds != *" selftests "* ]] || wants+=(selftests)
		# Checked out only if something is to be built.
		for kind in "${wants[@]}"; do
			if [ ! -f "$BISECT_CACHE/$(key "$kind")" ]; then
				kgit checkout -q --detach "$c"
				break
			fi
		done
		# The builds of a state side by side: each has its own output
		# folder, and the links, kallsyms passes and compression of one
		# are serial, so another keeps the second core busy.
		if [[ $builds == *" kernel "* ]]; then
			cached_check "$(key kernel)" "$tag kernel: $subject" \
				"$ROOT/scripts/build-kernel.sh" release &
			cached_check "$(key "debug $dirs")" "$tag debug: $subject" \
				env KERNEL_TARGETS="$dirs" "$ROOT/scripts/build-kernel.sh" debug &
		else
			echo "    $tag: only tools/, Documentation/ or MAINTAINERS: kernel not rebuilt"
		fi
		[[ $builds != *" perf "* ]] ||
			cached_check "$(key perf)" "$tag perf: $subject" \
				"$ROOT/scripts/build-perf.sh" &
		[[ $builds != *" perf-scripts "* ]] ||
			cached_check "$(key perf-scripts)" "$tag perf-scripts: $subject" \
				perf_scripts_check "$c" &
		[[ $builds != *" selftests "* ]] ||
			cached_check "$(key selftests)" "$tag selftests: $subject" \
				"$ROOT/scripts/build-selftests.sh" &
		wait
	done
	kgit checkout -q "$BRANCH"
}
