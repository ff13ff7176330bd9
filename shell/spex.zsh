# zsh completion for spex and sessions. Source it from ~/.zshrc:
#   . /path/to/spex/shell/spex.zsh
# zsh's bash-completion bridge runs the bash completion function as it is.
(( $+functions[compdef] )) || { autoload -Uz compinit && compinit -u; }
autoload -Uz bashcompinit && bashcompinit
. "${0:A:h}/spex.bash"
