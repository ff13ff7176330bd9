#!/bin/sh
# spex-post-checkout: after a checkout in a session worktree, re-render that
# worktree's agent hook config. Installed in the repository's hooks folder; it
# first runs every hook it displaced (oldest first), never blocks a checkout,
# and does nothing while a create holds the child-only defer marker.
# A displaced hook may run its own predecessor, which can be this script under
# another name (pre-commit's migration mode): that inner call does nothing.
[ -n "${SPEX_IN_POST_CHECKOUT:-}" ] && exit 0
SPEX_IN_POST_CHECKOUT=1
export SPEX_IN_POST_CHECKOUT
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
# spex writes the chained names in place of the marker (none, one or several).
# shellcheck disable=SC2043
for chained in @@CHAINED@@; do
  if [ -x "$here/$chained" ]; then
    "$here/$chained" "$@" || exit $?
  fi
done
[ -n "${SPEX_DEFER_RENDER:-}" ] && exit 0
spex_bin='@@SPEX_BIN@@'
[ -x "$spex_bin" ] || exit 0
unset GIT_DIR GIT_INDEX_FILE GIT_WORK_TREE GIT_PREFIX
"$spex_bin" internal post-checkout "$@" >/dev/null 2>&1 || true
exit 0
