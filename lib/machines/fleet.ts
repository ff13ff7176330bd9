// `live` over several machines: each host is asked in parallel (this one
// in-process, the others through `spex session live --json` over ssh), rows
// carry the machine's name, and a host that does not answer is one error
// entry while the others still answer (DESIGN.md §9).
import { SpexError } from "../errors";
import type { LiveFilters, LiveRow } from "../live";
import { type Machine, findMachine } from "./list";
import { parseRemoteJson, runSpexOn } from "./remote";

/** One machine a fan-out asks: this one, a configured one, or a name that is neither (answered by an error). */
export type FleetTarget = { name: string; kind: "local" } | { name: string; kind: "remote"; machine: Machine } | { name: string; kind: "unknown" };

export interface FleetError {
  machine: string;
  error: { code: string; message: string; hint: string };
}

/**
 * The machines of `--machine a,b` / `--all-machines` (this one first, then the
 * configured ones in their order); undefined when no other machine is involved,
 * so the one-machine path runs exactly as before.
 */
export function fleetTargets(opts: { machine?: string; allMachines: boolean }, localName: string, machines: Machine[]): FleetTarget[] | undefined {
  if (opts.allMachines) return [{ name: localName, kind: "local" }, ...machines.map((m) => ({ name: m.name, kind: "remote" as const, machine: m }))];
  if (opts.machine === undefined) return undefined;
  const names = opts.machine.split(",").map((n) => n.trim()).filter(Boolean);
  const targets: FleetTarget[] = names.map((name) => {
    if (name.toLowerCase() === localName.toLowerCase()) return { name: localName, kind: "local" };
    const m = findMachine(name, machines);
    return m ? { name: m.name, kind: "remote", machine: m } : { name, kind: "unknown" };
  });
  const once = targets.filter((t, i) => targets.findIndex((u) => u.name.toLowerCase() === t.name.toLowerCase()) === i);
  return once.some((t) => t.kind === "remote") ? once : undefined;
}

export function fleetError(machine: string, e: unknown): FleetError {
  if (e instanceof SpexError) return { machine, error: { code: e.code, message: e.message, hint: e.hint } };
  return { machine, error: { code: "internal_error", message: (e as Error)?.message ?? String(e), hint: "" } };
}

function unknownMachine(name: string): SpexError {
  return new SpexError("machine_unknown", `no machine named ${name}`, { hint: "list them with `spex machine ls`; add one with `spex machine add NAME DESTINATION`" });
}

/** A remote answer that is the remote's own refusal (`{"error":…}`) becomes that error. */
export function remoteRefusal(machine: Machine, answer: unknown): SpexError | undefined {
  const e = (answer as { error?: { code?: unknown; message?: unknown; hint?: unknown } } | null)?.error;
  if (typeof e !== "object" || e === null) return undefined;
  return new SpexError(String(e.code ?? "remote_error"), `machine ${machine.name}: ${String(e.message ?? "refused")}`, { hint: String(e.hint ?? "") });
}

/** Each target's answer, in target order; remote calls start before the local work so they overlap it. */
export async function askFleet<T>(targets: FleetTarget[], local: () => T | Promise<T>, remote: (m: Machine) => Promise<T>, sequential = false): Promise<Array<{ target: FleetTarget; value?: T; error?: FleetError }>> {
  const ask = (t: FleetTarget): Promise<T> =>
    t.kind === "local" ? Promise.resolve().then(local) : t.kind === "remote" ? remote(t.machine) : Promise.reject(unknownMachine(t.name));
  const settle = (t: FleetTarget, p: Promise<T>) => p.then((value) => ({ target: t, value }), (e: unknown) => ({ target: t, error: fleetError(t.name, e) }));
  if (sequential) {
    const out = [];
    for (const t of targets) out.push(await settle(t, ask(t)));
    return out;
  }
  const remotes = new Map(targets.filter((t) => t.kind !== "local").map((t) => [t as FleetTarget, settle(t, ask(t))]));
  const out = [];
  for (const t of targets) out.push(remotes.get(t) ?? (await settle(t, ask(t))));
  return Promise.all(out);
}

/** `spex session live` argv for another machine: the same filters, no machine filter (the row's machine is ours to set). */
export function remoteLiveArgv(filters: LiveFilters): string[] {
  return [
    "session", "live", "--json",
    ...(filters.openOnly ? ["--open-only"] : []),
    ...(filters.project !== undefined ? ["--project", filters.project] : []),
    ...(filters.statuses && filters.statuses.length > 0 ? ["--status", filters.statuses.join(",")] : []),
  ];
}

export async function remoteLiveRows(machine: Machine, filters: LiveFilters): Promise<LiveRow[]> {
  const answer = parseRemoteJson(machine, await runSpexOn(machine, remoteLiveArgv(filters)));
  const refusal = remoteRefusal(machine, answer);
  if (refusal) throw refusal;
  if (!Array.isArray(answer)) throw new SpexError("machine_answer_invalid", `machine ${machine.name} answered live with something other than rows`, { hint: `compare versions with \`spex machine ls\`` });
  return (answer as LiveRow[]).map((r) => ({ ...r, machine: machine.name }));
}

export interface FleetLive {
  rows: LiveRow[];
  errors: FleetError[];
  /** What `--json` prints: every row, then one error entry per machine that did not answer. */
  entries: Array<LiveRow | FleetError>;
}

export async function observeFleet(targets: FleetTarget[], filters: LiveFilters, local: () => LiveRow[] | Promise<LiveRow[]>): Promise<FleetLive> {
  const answers = await askFleet(targets, local, (m) => remoteLiveRows(m, filters));
  const rows = answers.flatMap((a) => a.value ?? []);
  const errors = answers.flatMap((a) => (a.error ? [a.error] : []));
  return { rows, errors, entries: [...rows, ...errors] };
}

/** Run `observe` `count` times (for ever without one), `intervalMs` apart. */
export async function repeatEvery(every: { intervalMs: number; count?: number }, observe: () => Promise<void>): Promise<void> {
  for (let n = 0; every.count === undefined || n < every.count; n++) {
    if (n > 0) await new Promise((r) => setTimeout(r, every.intervalMs));
    await observe();
  }
}
