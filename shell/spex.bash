# bash completion for spex and sessions. Source it from ~/.bashrc:
#   . /path/to/spex/shell/spex.bash
# Candidates come from `spex internal complete`, which reads the command
# registry itself, so completion never lags behind the verbs.
_spex_complete() {
  local words=("${COMP_WORDS[@]:1:COMP_CWORD}")
  if [ "${COMP_WORDS[0]##*/}" = sessions ]; then
    words=(session "${words[@]}")
  fi
  local IFS=$'\n'
  # shellcheck disable=SC2207
  COMPREPLY=($(spex internal complete -- "${words[@]}" 2>/dev/null))
}
complete -o default -F _spex_complete spex sessions
