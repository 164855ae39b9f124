#!/usr/bin/env bash
# Say whether the kernel tree holds commits or edits not yet in patches/.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

n=$(series_patches | wc -l)
case "$(tree_state)" in
missing) echo "tree: not created ($n patches in patches/): make tree" ;;
synced) echo "tree: in sync with patches/ ($n patches, $(postings | wc -l) postings)" ;;
behind) echo "tree: patches/ changed since the tree was made: make tree" ;;
detached)
	echo "tree: NOT ON BRANCH $BRANCH (an interrupted bisect?): at $(kgit log -1 --format='%h %s');" \
		"make tree puts it back"
	;;
dirty)
	echo "tree: UNCOMMITTED EDITS in build/linux (lost unless committed and exported):"
	kgit status --short | head -n 20
	;;
ahead)
	echo "tree: COMMITS NOT EXPORTED (lost at stop): make export"
	kgit log --oneline "$BASE_TAG..$BRANCH" | head -n 20
	;;
esac
