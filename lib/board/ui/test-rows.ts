// Rows for the component tests, shaped exactly as lib/sessions' rowOf makes
// them (the type checks that), with only what a test cares about given.
import type { CorruptRow, SessionRow } from "../model/services";

let n = 0;

export function sessionRow(fields: Partial<SessionRow> = {}): SessionRow {
  const id = fields.id ?? `${(++n).toString(16).padStart(8, "0")}-0000-4000-8000-000000000000`;
  return {
    kind: "ok",
    id,
    shortId: id.slice(0, 8),
    label: "a session",
    name: "",
    title: "a session",
    node: "",
    branch: `spex/a-session-${id.slice(0, 4)}`,
    base: null,
    worktree: `/repo/.worktrees/a-session-${id.slice(0, 4)}`,
    parent: "",
    group: "",
    lifecycle: "idle",
    proposal: "",
    note: "",
    display: "idle",
    liveness: "online",
    offlineReason: null,
    harness: "shell",
    launcher: "shell",
    tmuxSession: "",
    stopped: false,
    archived: false,
    retired: false,
    afterTurn: "",
    preview: "the prompt",
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    queuePosition: null,
    directory: "",
    model: "",
    effort: "",
    files: [],
    merged: false,
    setup: "", ports: null, sandbox: "",
    raw: { name: "", title: "a session", node: "" },
    usage: null,
    stall: null,
    ...fields,
  };
}

export function corruptRow(id = "ffffffff-0000-4000-8000-000000000000"): CorruptRow {
  return { kind: "corrupt", id, shortId: id.slice(0, 8), display: "corrupt", liveness: "unknown", file: `/store/${id}/session.json`, error: "Unexpected token" };
}

/** A frame without its colour sequences, for reading its words. */
export function plain(frame: string | undefined): string {
  return (frame ?? "").replace(/\u001b\[[0-9;]*m/g, "");
}
