# spex-shell-hook: the shell harness's lifecycle reports, as functions that
# spex's generated bash and zsh rc files and the plain-command watcher
# include. The rule is agent-hook.sh's: read the record with exact-line
# matches using shell builtins only, and run the binary (the one writer) only
# when the record would change. Nothing is spawned when nothing changes.
# POSIX sh that bash and zsh also run as is: no `local`, every name _spex_-prefixed.

# Read the fields the decisions need from $SPEX_RECORD; 1 when there is no record.
_spex_read_record() {
  _spex_status=''
  _spex_proposal_empty=0
  _spex_note_empty=0
  _spex_stopped=0
  _spex_fenced=1
  _spex_after_empty=0
  _spex_declared_empty=0
  if [ -z "${SPEX_RECORD:-}" ] || [ -z "${SPEX_BIN:-}" ] || [ ! -f "$SPEX_RECORD" ]; then return 1; fi
  # One field per line (the writer's guarantee).
  while IFS= read -r _spex_line || [ -n "$_spex_line" ]; do
    case $_spex_line in
      '  "status": "'*'",') _spex_status=${_spex_line#'  "status": "'}; _spex_status=${_spex_status%'",'} ;;
      '  "proposal": "",') _spex_proposal_empty=1 ;;
      '  "note": "",') _spex_note_empty=1 ;;
      '  "stopped": true,') _spex_stopped=1 ;;
      '  "after_turn": "",') _spex_after_empty=1 ;;
      '  "declared": "",') _spex_declared_empty=1 ;;
      '  "launch_readiness_pending": "",') _spex_fenced=0 ;;
    esac
  done < "$SPEX_RECORD"
  return 0
}

# Does ACTION leave the record as it is? (0: nothing to report)
_spex_settled() {
  case $1 in
    start) [ "$_spex_fenced" = 0 ] ;;
    tool)
      { [ "$_spex_status" = active ] || [ "$_spex_declared_empty" = 0 ]; } && [ "$_spex_stopped" = 0 ] && [ "$_spex_fenced" = 0 ] ;;
    turn)
      [ "$_spex_status" = active ] && [ "$_spex_proposal_empty" = 1 ] && [ "$_spex_note_empty" = 1 ] &&
        [ "$_spex_declared_empty" = 1 ] && [ "$_spex_stopped" = 0 ] && [ "$_spex_fenced" = 0 ] ;;
    stop)
      { [ "$_spex_status" = idle ] || [ "$_spex_status" = awaiting ] || [ "$_spex_declared_empty" = 0 ]; } &&
        [ "$_spex_after_empty" = 1 ] && [ ! -e "${SPEX_RECORD%/session.json}/inbox.pending" ] && [ "$_spex_fenced" = 0 ] ;;
    *) return 0 ;;
  esac
}

# Was a message handed over (the queue's state.json) after the record last
# changed? Its line then ran no command the pre-exec report saw (a comment; a
# builtin in a plain sh): its turn still counts, or the next message would
# wait for it for ever. (-nt: dash, bash, zsh and busybox all have it.)
spex_shell_turn_owed() {
  # shellcheck disable=SC3013
  [ -n "${SPEX_RECORD:-}" ] && [ "${SPEX_RECORD%/sessions/*}/queue/${SPEX_SESSION_ID:-}/state.json" -nt "$SPEX_RECORD" ]
}

# spex_shell_report ACTION EVENT
#   turn    a command line is about to run: active, a new turn
#   tool    something runs, seen only once it runs (the plain-command watcher):
#           active, but a declaration the command made itself stands
#   stop    the prompt is back: idle; carries out an after-turn request and
#           hands over queued messages
#   rest    readiness at the first prompt (start), then stop
#   prompt  the prompt is about to show: an owed turn, then rest
spex_shell_report() {
  case $1 in
    prompt)
      if spex_shell_turn_owed; then spex_shell_report turn "$2"; fi
      spex_shell_report rest "$2"
      return 0 ;;
    rest)
      # start, then stop, from one read of the record while neither changes it (the
      # plain-command watcher asks this at every quiet look); read again after a report.
      if _spex_read_record; then
        if ! _spex_settled start; then
          _spex_shell_hook start "$2"
          _spex_read_record || { _spex_shell_forget; return 0; }
        fi
        _spex_settled stop || _spex_shell_hook stop "$2"
      fi
      _spex_shell_forget
      return 0 ;;
  esac
  if _spex_read_record && ! _spex_settled "$1"; then _spex_shell_hook "$1" "$2"; fi
  _spex_shell_forget
  return 0
}

# Run the one writer for ACTION EVENT (only when the record would change).
_spex_shell_hook() {
  "$SPEX_BIN" internal hook shell "$1" "$2" </dev/null >/dev/null 2>&1 || :
}

_spex_shell_forget() {
  unset _spex_line _spex_status _spex_proposal_empty _spex_note_empty _spex_stopped _spex_fenced _spex_after_empty _spex_declared_empty
}
