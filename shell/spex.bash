# bash completion for spex and sessions. Source it from ~/.bashrc:
#   . /path/to/spex/shell/spex.bash
# (zsh sources it too, through spex.zsh.) Candidates come from
# `spex internal complete`, which reads the command registry itself, so
# completion never lags behind the verbs.
_spex_complete() {
  # Not `words`: zsh reserves that name.
  local spex_words=("${COMP_WORDS[@]:1:$COMP_CWORD}")
  # Slices index from 0 in bash and zsh alike (a plain [0] is empty in zsh).
  local spex_cmd="${COMP_WORDS[*]:0:1}"
  if [ "${spex_cmd##*/}" = sessions ]; then
    spex_words=(session "${spex_words[@]}")
  fi
  # One candidate a line, read as it is: an unquoted $(…) would also be
  # glob-expanded, and a session named `*` would complete to the files here.
  local spex_out spex_line
  # A Tab's run is short: JavaScriptCore's JIT and its heap warm-up thread
  # (which pre-faults memory once a run has allocated 1 MB) only cost it CPU.
  # JSC reads these from the environment alone (bench/README.md).
  spex_out=$(BUN_JSC_useWarmUpMarkedBlocks=0 BUN_JSC_useJIT=0 spex internal complete -- "${spex_words[@]}" 2>/dev/null)
  COMPREPLY=()
  while IFS= read -r spex_line; do
    [ -z "$spex_line" ] || COMPREPLY+=("$spex_line")
  done <<<"$spex_out"
  # The shell inserts a candidate as it is: quote it, since a session name is
  # anyone's text ("Night Shift", or "x; rm -rf ~" from an agent's --name).
  local spex_q spex_quoted=()
  for spex_q in "${COMPREPLY[@]}"; do
    printf -v spex_q '%q' "$spex_q"
    spex_quoted+=("$spex_q")
  done
  COMPREPLY=("${spex_quoted[@]}")
}
complete -o default -F _spex_complete spex sessions
