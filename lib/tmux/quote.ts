// Text for POSIX sh, as tmux and the launch scripts hand commands to a shell.

/** Single-quote for POSIX sh: any bytes but NUL survive. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
