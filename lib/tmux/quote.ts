// Text for POSIX sh, as tmux and the launch scripts hand commands to a shell,
// and for tmux's own argument parser.

/** Single-quote for POSIX sh: any bytes but NUL survive. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** A word for a command a person reads and pastes: bare when the shell takes it as is, else quoted. */
export function shellWord(value: string): string {
  return /^[\w./:@%+=-]+$/.test(value) ? value : shellQuote(value);
}

/**
 * A value as one tmux argument. tmux ends a command at an argument that ends
 * in `;` (keeping what came before it) and turns a trailing `\;` back into
 * `;`: so a folder, a path or a command word ending in `;` (or a lone `;`,
 * find's -exec terminator) is cut there and what follows runs as tmux
 * commands, unless escaped. spex's own separators are lone ";" arguments.
 */
export function tmuxWord(value: string): string {
  return value.endsWith(";") ? `${value.slice(0, -1)}\\;` : value;
}

/**
 * A folder for tmux's `-c`, which tmux expands as a format: `#(cmd)` in it
 * would run cmd in a shell (a start directory an agent asked for over MCP, a
 * terminal's --dir), `#{…}` would be replaced. `##` is a literal `#`.
 */
export function tmuxFolder(path: string): string {
  return tmuxWord(formatLiteral(path));
}

/** Text tmux expands as a format (a start folder, a new window's or session's name) kept as it is: `#` as `##`. */
export function formatLiteral(text: string): string {
  return text.replace(/#/g, "##");
}

/** `tmux -L <socket> <command…>` as a person pastes it: the socket and each word quoted for sh when they need it. */
export function tmuxCommandLine(socket: string, words: string[]): string {
  return ["tmux", ...(socket ? ["-L", socket] : []), ...words].map(shellWord).join(" ");
}
