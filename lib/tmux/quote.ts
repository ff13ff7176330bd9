// Text for POSIX sh, as tmux and the launch scripts hand commands to a shell.

/** Single-quote for POSIX sh: any bytes but NUL survive. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** A word for a command a person reads and pastes: bare when the shell takes it as is, else quoted. */
export function shellWord(value: string): string {
  return /^[\w./:@%+=-]+$/.test(value) ? value : shellQuote(value);
}
