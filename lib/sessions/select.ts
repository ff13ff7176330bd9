// Selectors (docs/selectors.md), tried in this order: full id, unique id
// prefix, name, branch, node, slug (the worktree and tmux session name,
// `fix-api-3b0a`), the tmux target `live` prints (`fix-api-3b0a:0.0`), and
// last a label that only one session has; or `.` for the session of the
// current worktree. Ids come first so nothing a prompt or a rename chose can
// stand in for what `ls` shows; a target needs its `:`, which no name and no
// branch may hold, so it shadows neither; a label comes last because a prompt
// chose it, and it only ever fills a gap the other tiers left.
import { basename } from "node:path";
import { SpexError } from "../errors";
import { findCheckout } from "../git/main-root";
import { shortId, labelOf } from "../naming";
import { type RecordReading, readSession } from "../record";
import { type ProjectStore, isSessionId, sessionIdFromEnv } from "../store";
import { readAll } from "./rows";
import { closestSessions } from "./near";

export type PresentReading = Exclude<RecordReading, { kind: "absent" }>;

function describe(r: PresentReading): string {
  return r.kind === "ok" ? `${shortId(r.id, 8)} (${labelOf(r.record)}, ${r.record.branch})` : `${shortId(r.id, 8)} (corrupt)`;
}

/** The session whose worktree contains `cwd`, if any. */
export function sessionAt(readings: RecordReading[], cwd: string): PresentReading | undefined {
  const top = findCheckout(cwd)?.top;
  if (!top) return undefined;
  return readings.find((r): r is Extract<RecordReading, { kind: "ok" }> => r.kind === "ok" && r.record.worktree_path === top);
}

/** The tmux session a `session:window.pane` target (also `session:window`, `session:`, a leading `=`) names. */
export function tmuxSessionOfTarget(selector: string): string | undefined {
  const m = /^=?([^:]+):(?:\d+(?:\.\d+)?)?$/.exec(selector);
  return m?.[1];
}

export function matchSelector(readings: RecordReading[], selector: string, cwd = process.cwd()): PresentReading {
  const present = readings.filter((r): r is PresentReading => r.kind !== "absent");
  if (selector === ".") {
    const here = sessionAt(readings, cwd);
    if (!here) {
      throw new SpexError("session_not_found", `no session owns the worktree at ${cwd}`, {
        hint: "run this from inside a session worktree, or name the session by id, name or branch",
        httpStatus: 404,
      });
    }
    return here;
  }
  const ok = present.filter((r): r is Extract<RecordReading, { kind: "ok" }> => r.kind === "ok");
  const tiers: PresentReading[][] = [
    present.filter((r) => r.id === selector),
    selector.length >= 2 ? present.filter((r) => r.id.startsWith(selector) || r.id.replace(/-/g, "").startsWith(selector)) : [],
    ok.filter((r) => r.record.name !== "" && r.record.name === selector),
    ok.filter((r) => r.record.branch === selector),
    ok.filter((r) => r.record.node !== "" && r.record.node === selector),
    ok.filter((r) => slugsOf(r.record).includes(selector)),
    targetTier(ok, selector),
    ok.filter((r) => labelOf(r.record) === selector),
  ];
  for (const tier of tiers) {
    if (tier.length === 1) return tier[0]!;
    if (tier.length > 1) {
      throw new SpexError("selector_ambiguous", `"${selector}" matches ${tier.length} sessions: ${tier.map(describe).join(", ")}`, {
        hint: "use a longer id prefix or the full id",
        details: { candidates: tier.map((r) => r.id) },
        exitCode: 1,
        httpStatus: 400,
      });
    }
  }
  const closest = closestSessions(ok, selector);
  throw new SpexError("session_not_found", `no session matches "${selector}"`, {
    hint: closest.length > 0
      ? `the closest: ${closest.map((r) => describe(r)).join(", ")}; name one by its id, or list sessions with \`spex session ls --all\``
      : "list sessions with `spex session ls --all`",
    details: closest.length > 0 ? { closest: closest.map((r) => r.id) } : {},
    httpStatus: 404,
  });
}

/** The names a session's worktree and tmux session carry (the same slug, unless one was renamed by hand). */
export function slugsOf(record: { tmux_session: string; worktree_path: string }): string[] {
  return [record.tmux_session, record.worktree_path ? basename(record.worktree_path) : ""].filter((s) => s !== "");
}

function targetTier(ok: Extract<RecordReading, { kind: "ok" }>[], selector: string): PresentReading[] {
  const tmux = tmuxSessionOfTarget(selector);
  return tmux ? ok.filter((r) => r.record.tmux_session === tmux) : [];
}

export function resolveSelector(store: ProjectStore, selector: string, cwd = process.cwd()): PresentReading {
  // A full id names its own folder and wins over every other tier: read that one
  // record, not the whole store (hooks write state through here on every turn).
  if (isSessionId(selector)) {
    const reading = readSession(store, selector);
    if (reading.kind !== "absent") return reading;
  }
  return matchSelector(readAll(store), selector, cwd);
}

/**
 * The agent's own session: an explicit --session (any selector), else
 * SPEX_SESSION_ID, else the session whose worktree contains the current folder.
 */
export function resolveOwnSession(store: ProjectStore, explicit: string | undefined, cwd = process.cwd()): string {
  if (explicit) return resolveSelector(store, explicit, cwd).id;
  const fromEnv = sessionIdFromEnv();
  if (fromEnv) return fromEnv;
  const here = sessionAt(readAll(store), cwd);
  if (here) return here.id;
  // These verbs (done, park, ask) take no selector word: the hint names the ways they do take one.
  throw new SpexError("session_not_found", `no session owns the worktree at ${cwd}`, {
    hint: "run this inside a session's worktree, set SPEX_SESSION_ID, or pass --session SEL",
    httpStatus: 404,
  });
}
