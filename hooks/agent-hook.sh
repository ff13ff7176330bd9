#!/bin/sh
# spex-agent-hook: the lifecycle hook every agent CLI runs, as
#   agent-hook.sh <harness> <action> <event>
# Fast path: when the record already says what this event would say and
# nothing is queued or pending, exit without spawning anything. A real change
# goes through the binary, the one writer. This script only reads.
set -u
harness=${1:-}
action=${2:-}
event=${3:-}
rec=${SPEX_RECORD:-}
[ -n "$rec" ] && [ -f "$rec" ] && [ -n "${SPEX_BIN:-}" ] || exit 0

status=''
proposal_empty=0
note_empty=0
stopped=0
archived=0
fenced=1
after_empty=0
declared_empty=0
# One field per line (the writer's guarantee): exact-line matches, no jq.
while IFS= read -r line || [ -n "$line" ]; do
  case $line in
    '  "status": "'*'",') status=${line#'  "status": "'}; status=${status%'",'} ;;
    '  "proposal": "",') proposal_empty=1 ;;
    '  "note": "",') note_empty=1 ;;
    '  "stopped": true,') stopped=1 ;;
    '  "archived": true,') archived=1 ;;
    '  "after_turn": "",') after_empty=1 ;;
    '  "declared": "",') declared_empty=1 ;;
    '  "launch_readiness_pending": "",') fenced=0 ;;
  esac
done < "$rec"

inbox="${rec%/session.json}/inbox.pending"
# A hard budget (lib/attention) is checked at every tool call: its marker sends tool events to the binary.
hard="${rec%/session.json}/budget.hard"
# An agent's own declaration (done, park, ask) stands until a new turn: what a
# hook infers later (a tool call, a Stop, a failure) changes nothing then.
case $action in
  turn)
    [ "$status" = active ] && [ "$proposal_empty" = 1 ] && [ "$note_empty" = 1 ] &&
      [ "$declared_empty" = 1 ] && [ "$stopped" = 0 ] && [ "$fenced" = 0 ] && exit 0 ;;
  tool)
    { [ "$status" = active ] || [ "$declared_empty" = 0 ]; } && [ "$stopped" = 0 ] && [ "$fenced" = 0 ] && [ ! -e "$hard" ] && exit 0 ;;
  stop)
    { [ "$status" = idle ] || [ "$status" = awaiting ] || [ "$declared_empty" = 0 ]; } &&
      [ "$after_empty" = 1 ] && [ ! -e "$inbox" ] && [ "$fenced" = 0 ] && exit 0 ;;
  ask | notify)
    { [ "$status" = asking ] || [ "$declared_empty" = 0 ]; } && exit 0 ;;
  fail)
    # Only an undeclared, active, running (not stopped, not archived) record turns to error.
    { [ "$status" != active ] || [ "$declared_empty" = 0 ] || [ "$stopped" = 1 ] || [ "$archived" = 1 ]; } && exit 0 ;;
  end)
    [ "$stopped" = 1 ] && exit 0 ;;
esac
# Without JavaScriptCore's heap warm-up thread: it pre-faults memory once a run
# has allocated 1 MB, which a hook's short run never uses (bench/README.md).
BUN_JSC_useWarmUpMarkedBlocks=0 exec "$SPEX_BIN" internal hook "$harness" "$action" "$event"
