#!/bin/sh
# The newcomer's first run: install what is missing, build spex, and start a
# demo session (the shell harness, so no agent account is needed) in a scratch
# repository. Everything it makes lives under one temporary folder.
set -eu
cd "$(dirname "$0")/.."

if ! command -v tmux >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq && apt-get install -y -qq tmux >/dev/null
  else
    echo "spex needs tmux: install it (e.g. sudo apt-get install tmux, brew install tmux) and run this again" >&2
    exit 1
  fi
fi
# make installs the npm dependencies (once, stamped by node_modules/.installed) before it builds.
make -s build

demo=$(mktemp -d "${TMPDIR:-/tmp}/spex-demo.XXXXXX")
# A tmux server of this run's own (named after its folder): another demo on
# this machine keeps its sessions, and the clean-up below ends only these.
export SPEX_HOME="$demo/home" SPEX_TMUX="spex-demo-${demo##*.}"
spex="$PWD/bin/spex"
git init -q -b main "$demo/repo"
cd "$demo/repo"
git -c user.name=demo -c user.email=demo@example.invalid commit -q --allow-empty -m "first commit"

echo "== spex session new (the shell harness: your own shell; the prompt runs as its first command)"
"$spex" session new --launcher shell --name greeter 'echo "hello from the [[demo]] session"'
"$spex" session new --launcher shell --no-launch --name later "make test"
"$spex" session wait greeter --idle --timeout 30
echo
echo "== send it a command that takes a while: ls shows it working, wait --idle returns when it is done"
"$spex" session send greeter "sleep 2; echo slept"
"$spex" session ls
"$spex" session wait greeter --idle --timeout 30
"$spex" session ls
echo
echo "== in the session, declare the work done (as an agent would), then show"
"$spex" session send greeter 'spex session done --propose merge --note "said hello"'
"$spex" session wait greeter --idle --timeout 30
"$spex" session show greeter | head -12
echo
echo "== spex session live (every tmux pane, classified)"
"$spex" session live
echo
echo "== close the session that never started (worktree, branch and record go)"
"$spex" session close later
"$spex" session ls
echo
echo "== spex doctor"
"$spex" doctor || true
echo
# Lines to paste: each path quoted for sh (a TMPDIR or checkout may hold blanks or quotes).
word() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
printf '%s\n' "Try: SPEX_HOME=$(word "$SPEX_HOME") SPEX_TMUX=$SPEX_TMUX $(word "$spex") session attach greeter   (detach: Ctrl-b d)"
printf '%s\n' "Clean up: tmux -L $SPEX_TMUX kill-server; rm -rf $(word "$demo")"
