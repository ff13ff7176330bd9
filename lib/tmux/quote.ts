// Text for POSIX sh, as tmux and the launch scripts hand commands to a shell,
// and for tmux's own argument parser.

/** Single-quote for POSIX sh: any bytes but NUL survive. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * A word for a command a person reads and pastes: bare when every shell takes
 * it as is, else quoted. Bare never starts with `=` (zsh expands `=name` to
 * the path of the command name), `~` or `#` (those two are outside the bare
 * set anyway). A word holding a control character (a newline in a folder's
 * name) is written `$'…'` with escapes, so the command stays on one line and
 * nothing in the word can print as a line of its own: bash, zsh and ksh read
 * it back byte for byte; a shell without `$'…'` (dash) gets a different word,
 * which fails rather than runs anything else.
 */
export function shellWord(value: string): string {
  if (/^[\w./:@%+-][\w./:@%+=-]*$/.test(value)) return value;
  // C0, DEL and C1 (U+0080..U+009F): none is visible, a newline ends a line.
  if (/[\u0000-\u001f\u007f-\u009f]/u.test(value)) return dollarQuote(value);
  return shellQuote(value);
}

/** `$'…'`: `\\` and `\'` escaped, each control character as the `\xHH` of its UTF-8 bytes. */
function dollarQuote(value: string): string {
  const body = value.replace(/[\\']|[\u0000-\u001f\u007f-\u009f]/gu, (c) => {
    if (c === "\\" || c === "'") return `\\${c}`;
    return [...Buffer.from(c, "utf8")].map((b) => `\\x${b.toString(16).padStart(2, "0")}`).join("");
  });
  return `$'${body}'`;
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

/** An argv as one line a POSIX shell runs as the same words (`sh -c 'echo a; sleep 1'`): each word quoted when it needs it. */
export function commandLine(argv: readonly string[]): string {
  return argv.map(shellWord).join(" ");
}

/** `tmux -L <socket> <command…>` as a person pastes it: the socket and each word quoted for sh when they need it. */
export function tmuxCommandLine(socket: string, words: string[]): string {
  return commandLine(["tmux", ...(socket ? ["-L", socket] : []), ...words]);
}
