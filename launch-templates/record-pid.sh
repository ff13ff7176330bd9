# Record this shell's pid and start time (field 22 of /proc/<pid>/stat);
# exec keeps both, so they name the agent for the rest of its life.
IFS= read -r spex_stat < /proc/$$/stat
set -- ${spex_stat##*) }
shift 19
printf '%s %s\n' "$$" "$1" > @@PIDFILE@@.tmp && mv -f @@PIDFILE@@.tmp @@PIDFILE@@
