// Another machine's `session ls --json` row, made into a row the board can
// draw. The answer comes over ssh from a machine that may run an older spex
// (fields it does not know yet) or that is hostile: the board must neither
// crash on a missing field nor print an id that is not one. So the id is
// checked (a row without a session id is dropped: it ends up in commands a
// person pastes and in verbs run over ssh), the short id is made from it, and
// every other field is taken only when it has its type, else its empty value.
import { shortId } from "../../naming";
import { isSessionId } from "../../store";
import type { ListRow, SessionRow } from "../model/services";

type Fields = Record<string, unknown>;

const text = (v: unknown): string => (typeof v === "string" ? v : "");
const textOrNull = (v: unknown): string | null => (typeof v === "string" ? v : null);
const flag = (v: unknown): boolean => v === true;
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

function usageOf(v: unknown): SessionRow["usage"] {
  if (typeof v !== "object" || v === null) return null;
  const u = v as Fields;
  const total = num(u.total);
  if (total === null) return null;
  const n = (k: string) => num(u[k]) ?? 0;
  const words = (w: unknown) => (Array.isArray(w) ? w.filter((x): x is string => typeof x === "string") : []);
  return {
    input: n("input"),
    output: n("output"),
    cacheRead: n("cacheRead"),
    cacheWrite: n("cacheWrite"),
    total,
    costUsd: num(u.costUsd),
    models: words(u.models),
    unpriced: words(u.unpriced),
    updatedAt: text(u.updatedAt),
  };
}

function filesOf(v: unknown): string[] | null {
  return Array.isArray(v) && v.every((f) => typeof f === "string") ? (v as string[]) : null;
}

/** The row of another machine named `machine`, or undefined when it carries no session id. */
export function remoteRow(value: unknown, machine: string): ListRow | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const r = value as Fields;
  const id = r.id;
  if (typeof id !== "string" || !isSessionId(id)) return undefined;
  const short = shortId(id, 8);
  if (r.kind === "corrupt") {
    return { kind: "corrupt", id, shortId: short, display: r.display === "unreadable" ? "unreadable" : "corrupt", liveness: "unknown", file: text(r.file), error: text(r.error), machine };
  }
  const raw = (typeof r.raw === "object" && r.raw !== null ? r.raw : {}) as Fields;
  const row: SessionRow = {
    kind: "ok",
    id,
    shortId: short,
    label: text(r.label) || short,
    name: text(r.name),
    title: text(r.title),
    node: text(r.node),
    branch: text(r.branch),
    base: textOrNull(r.base),
    worktree: text(r.worktree),
    parent: typeof r.parent === "string" && isSessionId(r.parent) ? r.parent : "",
    group: text(r.group),
    lifecycle: text(r.lifecycle),
    proposal: text(r.proposal),
    note: text(r.note),
    display: text(r.display) as SessionRow["display"],
    liveness: text(r.liveness) as SessionRow["liveness"],
    offlineReason: textOrNull(r.offlineReason) as SessionRow["offlineReason"],
    harness: text(r.harness),
    launcher: text(r.launcher),
    tmuxSession: text(r.tmuxSession),
    stopped: flag(r.stopped),
    archived: flag(r.archived),
    retired: flag(r.retired),
    afterTurn: text(r.afterTurn),
    preview: text(r.preview),
    createdAt: text(r.createdAt),
    updatedAt: text(r.updatedAt),
    queuePosition: num(r.queuePosition),
    directory: text(r.directory),
    model: text(r.model),
    effort: text(r.effort),
    files: filesOf(r.files),
    raw: { name: text(raw.name), title: text(raw.title), node: text(raw.node) },
    usage: usageOf(r.usage),
    stall: textOrNull(r.stall),
    merged: flag(r.merged),
    setup: text(r.setup),
    ports: textOrNull(r.ports),
    sandbox: text(r.sandbox),
  };
  return { ...row, machine };
}
