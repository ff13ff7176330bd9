# Record this shell's pid and start identity; exec keeps both, so they name the
# agent for the rest of its life. With /proc: clock ticks since boot (field 22
# of /proc/<pid>/stat). Without it (or SPEX_PROC=ps): `@` and the seconds since
# the epoch of the start `ps -o lstart` prints in UTC, the form lib/proc reads.
if [ "${SPEX_PROC:-}" != ps ] && [ -r "/proc/$$/stat" ]; then
  IFS= read -r spex_stat < "/proc/$$/stat"
  # shellcheck disable=SC2086
  set -- ${spex_stat##*) }
  shift 19
  spex_start=$1
else
  # shellcheck disable=SC2046
  set -- $(LC_ALL=C TZ=UTC0 ps -o lstart= -p "$$")
  spex_start=
  if [ $# -eq 5 ]; then
    spex_m=0
    case $2 in
      Jan) spex_m=1 ;; Feb) spex_m=2 ;; Mar) spex_m=3 ;; Apr) spex_m=4 ;; May) spex_m=5 ;; Jun) spex_m=6 ;;
      Jul) spex_m=7 ;; Aug) spex_m=8 ;; Sep) spex_m=9 ;; Oct) spex_m=10 ;; Nov) spex_m=11 ;; Dec) spex_m=12 ;;
    esac
    spex_h=${4%%:*} spex_s=${4##*:}
    spex_min=${4#*:} spex_min=${spex_min%:*}
    # Days since 1970-01-01 of a civil date (March-based years), then seconds;
    # leading zeros are dropped so no field reads as octal.
    spex_y=$(( $5 - (spex_m <= 2) ))
    spex_doy=$(( (153 * ((spex_m + 9) % 12) + 2) / 5 + $3 - 1 ))
    spex_days=$(( spex_y * 365 + spex_y / 4 - spex_y / 100 + spex_y / 400 + spex_doy - 719468 ))
    [ "$spex_m" -gt 0 ] && spex_start=@$(( spex_days * 86400 + ${spex_h#0} * 3600 + ${spex_min#0} * 60 + ${spex_s#0} ))
  fi
fi
printf '%s %s\n' "$$" "$spex_start" > @@PIDFILE@@.tmp && mv -f @@PIDFILE@@.tmp @@PIDFILE@@
