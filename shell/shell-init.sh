# shellcheck shell=bash
# Shell set-up for spex in one line of ~/.bashrc or ~/.zshrc:
#   . /path/to/spex/shell/shell-init.sh
# Completion for spex and sessions, and `sessions` as a function when the
# alias binary was not installed (`make install` installs it).
_spex_shell_dir=$(dirname "${BASH_SOURCE:-$0}")
if [ -n "${ZSH_VERSION:-}" ]; then
  . "$_spex_shell_dir/spex.zsh"
elif [ -n "${BASH_VERSION:-}" ]; then
  . "$_spex_shell_dir/spex.bash"
fi
command -v sessions >/dev/null 2>&1 || sessions() { spex session "$@"; }
unset _spex_shell_dir
