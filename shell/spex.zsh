# zsh completion for spex and sessions. Source it from ~/.zshrc:
#   . /path/to/spex/shell/spex.zsh
# Uses zsh's bash-completion bridge with the same `spex internal complete`.
autoload -Uz bashcompinit && bashcompinit
_spex_complete() {
  local words_=("${COMP_WORDS[@]:1:COMP_CWORD}")
  if [ "${COMP_WORDS[0]##*/}" = sessions ]; then
    words_=(session "${words_[@]}")
  fi
  local IFS=$'\n'
  COMPREPLY=($(spex internal complete -- "${words_[@]}" 2>/dev/null))
}
complete -o default -F _spex_complete spex sessions
