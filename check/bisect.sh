# shellcheck shell=bash
# Bisectability (sourced by check/run.sh): after every patch but the tip,
# build what that patch can break, each in the same output folder as the
# tip's build, so every build is incremental:
#   the debug kernel, unless the patch touches only tools/, Documentation/
#     or MAINTAINERS;
#   perf (-Werror), if it touches what perf is built from;
#   the perf_events kselftests, if it touches them or the uapi headers
#     they are built against.
# Check names carry the patch number: two patches may share a subject.

# touches COMMIT PATHSPEC...: the commit changes a file under PATHSPEC.
touches() {
	local c=$1
	shift
	! kgit diff --quiet "$c^" "$c" -- "$@"
}

# bisect_builds RESERVE: stop building once fewer than RESERVE seconds of
# the budget are left; what was not built is counted as failed.
bisect_builds() {
	local reserve=$1 c commits i total tag subject
	mapfile -t commits < <(kgit rev-list --reverse "$BASE_TAG..$BRANCH")
	total=${#commits[@]}
	for ((i = 0; i < total - 1; i++)); do
		c=${commits[$i]}
		tag=$(printf 'bisect %02d/%02d' $((i + 1)) "$total")
		subject=$(kgit log -1 --format=%s "$c")
		if [ "$(remaining)" -lt "$reserve" ]; then
			record FAIL "$tag $subject (not built: no time left for the stages after it)"
			continue
		fi
		kgit checkout -q --detach "$c"
		if touches "$c" ':!tools/' ':!Documentation/' ':!MAINTAINERS'; then
			check "$tag kernel: $subject" "$ROOT/scripts/build-kernel.sh" debug
		else
			echo "    $tag: only tools/, Documentation/ or MAINTAINERS: kernel not rebuilt"
		fi
		if touches "$c" tools/perf tools/lib tools/include tools/arch \
			tools/build tools/scripts; then
			check "$tag perf: $subject" "$ROOT/scripts/build-perf.sh"
		fi
		if touches "$c" tools/testing/selftests/perf_events include/uapi; then
			check "$tag selftests: $subject" "$ROOT/scripts/build-selftests.sh"
		fi
	done
	kgit checkout -q "$BRANCH"
}
