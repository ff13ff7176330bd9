#!/bin/sh
# spex-post-checkout: after a checkout in a session worktree, re-render that
# worktree's agent hook config. Installed in the repository's hooks folder; it
# runs the hook it displaced first, never blocks a checkout, and does nothing
# while a create holds the child-only defer marker.
chained="$0.spex-chained"
if [ -x "$chained" ]; then
  "$chained" "$@" || exit $?
fi
[ -n "${SPEX_DEFER_RENDER:-}" ] && exit 0
spex_bin='@@SPEX_BIN@@'
[ -x "$spex_bin" ] || exit 0
unset GIT_DIR GIT_INDEX_FILE GIT_WORK_TREE GIT_PREFIX
"$spex_bin" internal post-checkout "$@" >/dev/null 2>&1 || true
exit 0
