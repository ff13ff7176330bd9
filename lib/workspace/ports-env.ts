// How a port block reaches a process: SPEX_PORT (the first) and SPEX_PORTS
// (`first-last`), for the agent, its setup, its terminals and its teardown.

export interface PortBlock {
  first: number;
  last: number;
}

export function parseBlock(text: string | undefined): PortBlock | undefined {
  const m = text ? /^(\d+)-(\d+)$/.exec(text) : null;
  if (!m) return undefined;
  const first = Number(m[1]);
  const last = Number(m[2]);
  return first >= 1 && last <= 65535 && first <= last ? { first, last } : undefined;
}

export function blockText(b: PortBlock): string {
  return `${b.first}-${b.last}`;
}

/** The environment of a block written on a record (`first-last`); nothing without one. */
export function portEnv(ports: string | undefined): Record<string, string> {
  const b = parseBlock(ports);
  return b ? { SPEX_PORT: String(b.first), SPEX_PORTS: blockText(b) } : {};
}
