#!/bin/sh
# `make install`: the binary, the `sessions` alias and the shell integration
# under $SPEX_PREFIX (make exports PREFIX as it was given, whatever it holds),
# then the lines that turn them on. A person pastes those lines, so each is
# quoted for where it goes: sh for bash and zsh, fish, and the tmux config
# (whose status line tmux hands to sh, with formats expanded first).
set -eu
cd "$(dirname "$0")/.."

prefix=${SPEX_PREFIX:?SPEX_PREFIX names the install prefix}
case $prefix in
  *[[:cntrl:]]*) echo "PREFIX holds a control character: pick another" >&2; exit 2 ;;
esac
mkdir -p "$prefix/bin" "$prefix/share/spex"
# Absolute, so the printed lines work from any folder.
prefix=$(cd "$prefix" && pwd -P)
bin=$prefix/bin
share=$prefix/share/spex

# Beside its final name, then renamed over it: a spex running from there (an
# agent's MCP server, the board, spex serve) keeps its file, where writing
# into it fails "Text file busy" and a fleet would have to stop for an upgrade.
tmp=$bin/.spex-install.$$
trap 'rm -f "$tmp"' EXIT
cp bin/spex "$tmp"
mv -f "$tmp" "$bin/spex"
trap - EXIT
# `sessions` is a common name: a file there that is not spex's own link is the
# user's (a script of theirs), and stays as it is.
sessions=$bin/sessions
if [ -L "$sessions" ]; then
  case $(readlink "$sessions") in spex | "$bin/spex") sessions_ours=1 ;; *) sessions_ours=0 ;; esac
elif [ -e "$sessions" ]; then
  sessions_ours=0
else
  sessions_ours=1
fi
[ "$sessions_ours" = 1 ] && ln -sf spex "$sessions"
cp shell/shell-init.sh shell/spex.bash shell/spex.zsh shell/spex.fish shell/tmux-status.sh "$share/"
chmod 644 "$share/shell-init.sh" "$share/spex.bash" "$share/spex.zsh" "$share/spex.fish"
chmod 755 "$share/tmux-status.sh"

# One word for sh (bash, zsh): single quotes, a quote inside as '\''.
sh_word() {
  printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}
# One word for fish: single quotes, where \\ and \' are the only escapes.
fish_word() {
  printf "'%s'" "$(printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e "s/'/\\\\'/g")"
}
# A double-quoted tmux config string: tmux reads \ and $ there, and " ends it.
tmux_string() {
  printf '"%s"' "$(printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/\$/\\$/g')"
}

# Each line to paste stands alone under what it is for, indented four spaces.
# printf, not echo: dash's echo would read the backslashes of a quoted path.
say() { printf '%s\n' "$*"; }
if [ "$sessions_ours" = 1 ]; then
  say "installed $bin/spex, $bin/sessions and the shell integration in $share"
else
  say "installed $bin/spex and the shell integration in $share"
  say "$sessions is there already and is not spex's: left as it is (spex session … does what sessions … would)"
fi
case ":${PATH:-}:" in
  *":$bin:"*) ;;
  *)
    case $bin in
      *:*) say "$bin holds a ':' and cannot go on PATH: run $bin/spex by its path, or install with another PREFIX" ;;
      *)
        say "$bin is not on your PATH yet; add it"
        say "  for bash or zsh, to ~/.bashrc or ~/.zshrc:"
        say "    export PATH=$(sh_word "$bin"):\"\$PATH\""
        say "  for fish, to ~/.config/fish/config.fish:"
        say "    set -gx PATH $(fish_word "$bin") \$PATH"
        ;;
    esac
    ;;
esac
say "completion and the shell integration"
say "  for bash or zsh, to ~/.bashrc or ~/.zshrc:"
say "    . $(sh_word "$share/shell-init.sh")"
say "  for fish, to ~/.config/fish/config.fish:"
say "    source $(fish_word "$share/spex.fish")"

# The status segment: tmux runs #(…) through sh after expanding formats in
# it, and only #{pane_id} (tmux's own `%N`) goes in; the script asks tmux for
# that pane's folder itself, so no folder name ever reaches a shell as code.
# In #(…) `#` is written `##`, except that tmux keeps any run of `#` before
# `[` as it is (a style, for drawing): there the quoted word is split, `#''[`,
# which sh reads as `#[`. A `(` or `)` could end #(…) early. tmux runs the
# whole status text through strftime first: `%` is written `%%`. It is
# appended once: sourcing the config again finds it there and adds nothing.
script=$share/tmux-status.sh
say "tmux, to ~/.tmux.conf (each adds to what you have)"
case $script in
  *[\(\)]*) say "  (no status segment: $script holds a parenthesis, which tmux's #(…) cannot carry; install with another PREFIX)" ;;
  *)
    segment=" #($(sh_word "$script" | sed -e "s/#\\[/#''[/g" -e 's/#/##/g' -e 's/%/%%/g') #{pane_id})"
    say "  the spex status at the end of your status-right (raise status-right-length if it is cut short):"
    say "    if-shell -F '#{?#{m:*tmux-status.sh*,#{status-right}},0,1}' { set -ga status-right $(tmux_string "$segment") }"
    ;;
esac
# The board in a popup on prefix S, bound only while S is free: list-keys
# fails for an unbound key. -d is a folder tmux changes into, not shell text.
say "  the board in a popup on prefix S, only while S is unbound:"
say "    if-shell '! tmux list-keys -T prefix S >/dev/null 2>&1' 'bind-key S display-popup -E -w 90% -h 90% -d \"#{pane_current_path}\" \"spex board\"'"

# Optional (issue 27): a systemd user service that brings the fleet back at
# login, printed, never installed. systemd refuses quotes and backslashes in
# the executable's own name, so the binary is handed to sh as an argument,
# where it takes the unit's double-quoted form (\ and " escaped, $ as $$,
# % as %%). sh -l reads the login profile, so the agents' own PATH is there.
# KillMode=process: the tmux server spex starts must outlive this one-shot.
systemd_word() {
  printf '"%s"' "$(printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/\$/$$/g' -e 's/%/%%/g')"
}
if [ "$(uname -s)" = Linux ]; then
  unit="\"\${XDG_CONFIG_HOME:-\$HOME/.config}/systemd/user\""
  set -- '[Unit]' 'Description=Bring back the spex sessions whose agents died (spex session resume --all)' \
    '[Service]' 'Type=oneshot' "ExecStart=/bin/sh -lc \"exec \\\"\$\$0\\\" session resume --all --quiet\" $(systemd_word "$bin/spex")" 'KillMode=process' \
    '[Install]' 'WantedBy=default.target'
  lines=
  for l in "$@"; do lines="$lines $(sh_word "$l")"; done
  say "optional: bring the sessions back at login (spex session resume --all --quiet), a systemd user service"
  say "  to turn it on, in bash or zsh (systemctl --user disable spex-resume.service turns it off):"
  say "    mkdir -p $unit && printf '%s\\n'$lines > $unit/spex-resume.service && systemctl --user daemon-reload && systemctl --user enable spex-resume.service"
fi
