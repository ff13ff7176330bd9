# spex-shell-hook for fish: the same reports as shell-hook.sh, in fish. The
# record is read with builtins (read, string), and the binary (the one writer)
# runs only when the record would change: nothing is spawned otherwise.
function __spex_shell_report --argument-names action event
    if test "$action" = prompt
        # A message handed over after the record last changed that ran no
        # command fish_preexec saw (a comment): its turn still counts.
        if set -q SPEX_RECORD SPEX_SESSION_ID
            set -l queue_state (string replace -r '/sessions/[^/]*/session\.json$' '' -- $SPEX_RECORD)/queue/$SPEX_SESSION_ID/state.json
            test "$queue_state" -nt "$SPEX_RECORD"; and __spex_shell_report turn $event
        end
        __spex_shell_report start $event
        __spex_shell_report stop $event
        return 0
    end
    set -q SPEX_RECORD SPEX_BIN; or return 0
    test -n "$SPEX_RECORD" -a -n "$SPEX_BIN" -a -f "$SPEX_RECORD"; or return 0
    set -l st ''
    set -l proposal_empty 0
    set -l note_empty 0
    set -l stopped 0
    set -l fenced 1
    set -l after_empty 0
    set -l declared_empty 0
    # One field per line (the writer's guarantee): exact-line matches.
    while read -l line
        switch $line
            case '  "status": "*",'
                set st (string replace -r '^  "status": "(.*)",$' '$1' -- $line)
            case '  "proposal": "",'
                set proposal_empty 1
            case '  "note": "",'
                set note_empty 1
            case '  "stopped": true,'
                set stopped 1
            case '  "after_turn": "",'
                set after_empty 1
            case '  "declared": "",'
                set declared_empty 1
            case '  "launch_readiness_pending": "",'
                set fenced 0
        end
    end <$SPEX_RECORD
    set -l settled 1
    switch $action
        case start
            test $fenced = 0; or set settled 0
        case turn
            test "$st" = active -a $proposal_empty = 1 -a $note_empty = 1 -a $declared_empty = 1 -a $stopped = 0 -a $fenced = 0
            or set settled 0
        case stop
            set -l inbox (string replace -r '/session\.json$' '' -- $SPEX_RECORD)/inbox.pending
            test "$st" = idle -o "$st" = awaiting -o $declared_empty = 0
            and test $after_empty = 1 -a $fenced = 0
            and not test -e $inbox
            or set settled 0
    end
    if test $settled = 0
        $SPEX_BIN internal hook shell $action $event </dev/null >/dev/null 2>&1
    end
    return 0
end
