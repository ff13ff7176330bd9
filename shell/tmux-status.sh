#!/bin/sh
# A tmux status segment: how many sessions of this repository are working,
# asking and waiting for review. In ~/.tmux.conf:
#   set -g status-right '#(cd #{pane_current_path} && /path/to/spex/shell/tmux-status.sh)'
# It reads `spex session ls --json` and counts with sed and grep: no jq.
rows=$(spex session ls --json 2>/dev/null) || exit 0
count() {
  printf '%s\n' "$rows" | grep -c "^    \"display\": \"$1\","
}
working=$(count working)
asking=$(count asking)
review=$(count review)
[ "$working$asking$review" = 000 ] && exit 0
printf 'spex %s working · %s asking · %s review' "$working" "$asking" "$review"
