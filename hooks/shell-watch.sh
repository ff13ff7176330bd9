
# spex-shell-watch PID: lifecycle for a plain command of the shell harness
# (no shell hooks to report it), read from the pane itself. The command is at
# rest when its own process PID holds the terminal and nothing runs in its
# foreground process group but itself: `sh -c 'make test; exec sh'` is
# working while make runs (same group) and at rest once the final sh waits
# for input; a job that interactive sh starts takes the terminal (working).
# Started by launch.sh just before it execs the command; ends with PID.
# Reads /proc with builtins; the only process it starts on a quiet pane is
# the `sleep` between looks. It sees a command only once it runs, so it
# reports `tool` (active; a declaration the command made itself, such as
# `spex session done`, stands) rather than a new turn; a message handed over
# whose command it never saw still counts as a turn at rest (shell-hook.sh).
set -u
pid=${1:-}
[ -n "$pid" ] && [ -r "/proc/$pid/stat" ] || exit 0
tick=${SPEX_SHELL_WATCH_TICK:-0.3}
# After this many quiet looks with nothing to report (about 15 s), look once a
# second: each look costs a `sleep` process and a read of the record, and a
# fleet of commands at rest would otherwise keep a core busy. Anything seen
# (work, a message handed over) brings the quick looks back.
calm_after=${SPEX_SHELL_WATCH_CALM_AFTER:-50}
calm_tick=${SPEX_SHELL_WATCH_CALM_TICK:-1}

# Fields 3.. of /proc/PID/stat into $1.. (the command name, field 2, may hold spaces).
stat_of() {
  IFS= read -r _stat < "/proc/$1/stat" 2>/dev/null || return 1
  _stat=${_stat##*) }
}

stat_of "$pid" || exit 0
# shellcheck disable=SC2086
set -- $_stat
start=${20}
busy_before=0
quiet=0
owed=0

while :; do
  stat_of "$pid" || exit 0
  # shellcheck disable=SC2086
  set -- $_stat
  # The pid now names another process: the command is gone.
  [ "${20}" = "$start" ] || exit 0
  pgrp=$3
  tpgid=$6
  busy=0
  if [ "$tpgid" != "$pgrp" ]; then
    busy=1
  else
    kids=''
    IFS= read -r kids < "/proc/$pid/task/$pid/children" 2>/dev/null || :
    for kid in $kids; do
      [ "$kid" = "$$" ] && continue
      stat_of "$kid" || continue
      # shellcheck disable=SC2086
      set -- $_stat
      if [ "$3" = "$pgrp" ]; then busy=1; break; fi
    done
  fi
  if [ "$busy" = 1 ]; then
    [ "$busy_before" = 1 ] || spex_shell_report tool watch
    busy_before=1
    quiet=0
    owed=0
  else
    # Rest counts after two quiet looks in a row (a script's gap between two commands is not rest).
    quiet=$((quiet + 1))
    if [ "$quiet" -ge 2 ]; then
      busy_before=0
      # A message just handed over may not have started yet: owed only when a second look still says so.
      if spex_shell_turn_owed; then owed=$((owed + 1)); else owed=0; fi
      if [ "$owed" -ge 2 ]; then
        spex_shell_report turn watch
        owed=0
      fi
      spex_shell_report rest watch
    fi
  fi
  if [ "$busy" = 0 ] && [ "$owed" = 0 ] && [ "$quiet" -ge "$calm_after" ]; then
    sleep "$calm_tick"
  else
    sleep "$tick"
  fi
done
