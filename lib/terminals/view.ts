// What `terminal ls` and the snapshot show for each terminal, and how a
// terminal is named on the command line. Liveness comes from one
// `tmux list-panes -a` per socket, however many terminals there are.
import { SpexError } from "../errors";
import { labelOf, shortId } from "../naming";
import { readSession } from "../record";
import type { ProjectStore } from "../store";
import { type PaneState, serverPanes } from "../tmux";
import { type TerminalReading, listTerminalIds, namesIdPrefix, readTerminal } from "./record";

/**
 * `running`: its program runs; `exited`: the program ended, its last screen is
 * kept (read it, then close); `gone`: the tmux session no longer exists (the
 * tmux server was killed, or someone ended it); `unknown`: tmux could not be asked.
 */
export type TerminalState = "running" | "exited" | "gone" | "unknown";

export interface TerminalRow {
  kind: "ok";
  id: string;
  shortId: string;
  name: string;
  /** The session it sits beside, "" for the main checkout. */
  session: string;
  /** That session's label; "" without one, `(closed)` when its record is gone. */
  sessionLabel: string;
  directory: string;
  command: string[];
  state: TerminalState;
  tmuxSocket: string;
  tmuxSession: string;
  createdAt: string;
}

export interface CorruptTerminalRow {
  kind: "corrupt";
  id: string;
  shortId: string;
  state: "corrupt";
  file: string;
  error: string;
}

export type TerminalListRow = TerminalRow | CorruptTerminalRow;

export function readAllTerminals(store: ProjectStore): Exclude<TerminalReading, { kind: "absent" }>[] {
  return listTerminalIds(store).flatMap((id) => {
    const r = readTerminal(store, id);
    return r.kind === "absent" ? [] : [r];
  });
}

function stateOf(panes: Map<string, PaneState> | undefined, name: string): TerminalState {
  if (!panes) return "unknown";
  const pane = panes.get(name);
  return !pane ? "gone" : pane.dead ? "exited" : "running";
}

/** Every terminal, oldest first; `session` keeps only those beside that session, `id` only that one. */
export function listTerminals(store: ProjectStore, opts: { session?: string; id?: string } = {}): TerminalListRow[] {
  const readings = opts.id ? [readTerminal(store, opts.id)].filter((r): r is Exclude<TerminalReading, { kind: "absent" }> => r.kind !== "absent") : readAllTerminals(store);
  const servers = new Map<string, Map<string, PaneState> | undefined>();
  const labels = new Map<string, string>();
  const label = (id: string) => {
    if (!id) return "";
    let l = labels.get(id);
    if (l === undefined) {
      const r = readSession(store, id);
      labels.set(id, (l = r.kind === "ok" ? labelOf(r.record) : r.kind === "absent" ? "(closed)" : shortId(id, 8)));
    }
    return l;
  };
  const rows: TerminalListRow[] = [];
  for (const r of readings) {
    if (r.kind === "corrupt") {
      if (!opts.session) rows.push({ kind: "corrupt", id: r.id, shortId: shortId(r.id, 8), state: "corrupt", file: r.file, error: r.error });
      continue;
    }
    const t = r.record;
    if (opts.session && t.session !== opts.session) continue;
    if (!servers.has(t.tmux_socket)) servers.set(t.tmux_socket, serverPanes(t.tmux_socket));
    rows.push({
      kind: "ok",
      id: t.terminal_id,
      shortId: shortId(t.terminal_id, 8),
      name: t.name,
      session: t.session,
      sessionLabel: label(t.session),
      directory: t.directory,
      command: t.command,
      state: stateOf(servers.get(t.tmux_socket), t.tmux_session),
      tmuxSocket: t.tmux_socket,
      tmuxSession: t.tmux_session,
      createdAt: t.createdAt,
    });
  }
  const created = (row: TerminalListRow) => (row.kind === "ok" ? row.createdAt : "");
  return rows.sort((a, b) => created(a).localeCompare(created(b)) || a.id.localeCompare(b.id));
}

/**
 * A terminal by full id, unique id prefix (2+ characters) or name, in that
 * order (as session selectors): a name never shadows an id, even one a
 * record made before names were checked still carries.
 */
export function resolveTerminal(store: ProjectStore, selector: string): Exclude<TerminalReading, { kind: "absent" }> {
  const all = readAllTerminals(store);
  const tiers = [
    all.filter((r) => r.id === selector),
    all.filter((r) => namesIdPrefix(r.id, selector)),
    all.filter((r) => r.kind === "ok" && r.record.name === selector),
  ];
  for (const tier of tiers) {
    if (tier.length === 1) return tier[0]!;
    if (tier.length > 1) {
      throw new SpexError("selector_ambiguous", `"${selector}" matches ${tier.length} terminals: ${tier.map((r) => shortId(r.id, 8)).join(", ")}`, {
        hint: "use a longer id prefix or the full id",
        details: { candidates: tier.map((r) => r.id) },
        httpStatus: 400,
      });
    }
  }
  throw new SpexError("terminal_not_found", `no terminal matches "${selector}"`, {
    hint: "list terminals with `spex terminal ls`",
    httpStatus: 404,
  });
}
