// Merge spex's hook entries into a harness's JSON settings file without
// clobbering what the user has: spex entries are recognised by a marker in
// their command and replaced; everything else is kept as it was.
import { join } from "node:path";
import { SpexError } from "../errors";
import { readFileNoFollow, writeFileNoFollow } from "../nofollow";
import type { HookAction } from "./types";

export const HOOK_MARKER = "spex-agent-hook";

interface HookHandler {
  type: string;
  command?: string;
  timeout?: number;
  [k: string]: unknown;
}
interface HookGroup {
  matcher?: string;
  hooks?: HookHandler[];
  [k: string]: unknown;
}

function isOurs(h: HookHandler): boolean {
  return typeof h.command === "string" && h.command.includes(HOOK_MARKER);
}

/**
 * settings.hooks[event] = the user's groups with spex handlers removed, plus
 * one group holding spex's handler for that event. Idempotent.
 */
export function mergeHookSettings(
  settings: Record<string, unknown>,
  entries: { event: string; command: string; timeout?: number }[],
): Record<string, unknown> {
  const hooks = { ...((settings.hooks as Record<string, HookGroup[]> | undefined) ?? {}) };
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    const kept = groups
      .map((g) => ({ ...g, hooks: (g.hooks ?? []).filter((h) => !isOurs(h)) }))
      .filter((g) => g.hooks.length > 0);
    if (kept.length > 0) hooks[event] = kept;
    else delete hooks[event];
  }
  for (const e of entries) {
    const handler: HookHandler = { type: "command", command: e.command };
    if (e.timeout !== undefined) handler.timeout = e.timeout;
    hooks[e.event] = [...(hooks[e.event] ?? []), { hooks: [handler] }];
  }
  return { ...settings, hooks };
}

/** A JSON settings file of the worktree as an object ({} when absent or not an object); throws when unreadable or unparseable. */
export function readJsonSettings(worktree: string, relFile: string): Record<string, unknown> {
  const text = readFileNoFollow(worktree, relFile);
  const value: unknown = text?.trim() ? JSON.parse(text) : {};
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * Read a JSON settings file of the worktree (absent = {}), apply `change`, and
 * land the result without following a link. An unparseable file is refused,
 * never overwritten; an unchanged one is left alone (an agent may be reading it).
 */
export function updateJsonSettings(worktree: string, relFile: string, change: (settings: Record<string, unknown>) => Record<string, unknown>): string {
  const file = join(worktree, relFile);
  let settings: Record<string, unknown> = {};
  // A tracked link at this name (or at a folder above it) is refused, never read or written through.
  const before = readFileNoFollow(worktree, relFile);
  if (before !== undefined) {
    try {
      settings = before.trim() ? (JSON.parse(before) as Record<string, unknown>) : {};
    } catch (e) {
      throw new SpexError("hook_config_unparseable", `${file} is not valid JSON (${(e as Error).message}); spex will not overwrite it`, {
        hint: "fix or remove that file, then try again",
      });
    }
    if (!settings || typeof settings !== "object" || Array.isArray(settings)) {
      throw new SpexError("hook_config_unparseable", `${file} does not hold a JSON object; spex will not overwrite it`, {
        hint: "fix or remove that file, then try again",
      });
    }
  }
  const text = JSON.stringify(change(settings), null, 2) + "\n";
  if (before === text) return relFile;
  writeFileNoFollow(worktree, relFile, text);
  return relFile;
}

export function renderJsonHooks(
  worktree: string,
  relFile: string,
  entries: { event: string; command: string; timeout?: number }[],
): string {
  return updateJsonSettings(worktree, relFile, (settings) => mergeHookSettings(settings, entries));
}

/** The renderHooks of a harness whose hooks live in one JSON settings file of the worktree. */
export function jsonHookRenderer(relFile: string, events: Record<string, HookAction>) {
  return async (worktree: string, hookCommand: (action: HookAction, event: string) => string): Promise<string[]> => {
    const entries = Object.entries(events).map(([event, action]) => ({ event, command: hookCommand(action, event) }));
    return [renderJsonHooks(worktree, relFile, entries)];
  };
}
