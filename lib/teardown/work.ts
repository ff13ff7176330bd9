// What in a worktree is the session's work (DESIGN.md §13: files the user did
// not give spex are the user's). Staged, unstaged, untracked and ignored files
// all count; only what spex itself rendered there does not: the harness's hook
// config (in a tracked file too, while spex's hooks are all it changed), its MCP
// server registration and the copy of spexcode.local.json (its original stays in the main
// checkout). Everything else — a `.env.local`, a build folder, a nested
// `.worktrees/` — refuses a close without --force.
import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { LOCAL_CONFIG_FILE } from "../config";
import { harnessAdapter, isHarnessName, mergeHookSettings } from "../harness";
import { worktreeGitEnv } from "../git/pinned";
import { readFileNoFollow } from "../nofollow";
import { type DirtyEntry, git, worktreeChanges } from "./git";

function renderedFiles(harness: string, directory: string): Set<string> {
  const adapter = isHarnessName(harness) ? harnessAdapter(harness) : undefined;
  const own = [...(adapter?.hookConfigFiles ?? []), ...(adapter?.mcpConfigFiles ?? [])];
  // A session started in a subfolder may have them rendered there too (lib/launch/render.ts).
  const inStart = directory && adapter?.hooksFromStartFolder ? own.map((f) => `${directory}/${f}`) : [];
  return new Set<string>([LOCAL_CONFIG_FILE, ...own, ...inStart]);
}

interface OwnFiles {
  has(rel: string): boolean;
}

/** True when the folder `rel` (relative, ending in "/") holds nothing but files in `own`; symlinks are never followed. */
function holdsOnly(worktree: string, rel: string, own: OwnFiles): boolean {
  for (const name of readdirSync(join(worktree, rel))) {
    const path = `${rel}${name}`;
    const st = lstatSync(join(worktree, path));
    if (st.isDirectory() ? !holdsOnly(worktree, `${path}/`, own) : !own.has(path)) return false;
  }
  return true;
}

/** JSON with its keys sorted, so two objects compare by content. */
function canonical(value: unknown): string {
  const sort = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(sort) : v && typeof v === "object" ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sort((v as Record<string, unknown>)[k])])) : v;
  return JSON.stringify(sort(value));
}

/**
 * A hook config the repository tracks (a project's `.gemini/settings.json`):
 * spex merges its hooks into it, so git sees it changed. It is spex's render,
 * not work, while it differs from the committed file only by spex's own hook
 * handlers (unstaged, both read as JSON, spex's handlers left out of both).
 */
function onlyOurHooks(root: string, worktree: string, entry: DirtyEntry, own: OwnFiles): boolean {
  if (entry.status !== " M" || !own.has(entry.path)) return false;
  const committed = git(worktree, ["show", `HEAD:${entry.path}`], worktreeGitEnv(root, worktree));
  const current = readFileNoFollow(worktree, entry.path);
  if (committed.code !== 0 || current === undefined) return false;
  const settings = (text: string): string | undefined => {
    try {
      const v: unknown = text.trim() ? JSON.parse(text) : {};
      return v && typeof v === "object" && !Array.isArray(v) ? canonical(mergeHookSettings(v as Record<string, unknown>, [])) : undefined;
    } catch {
      return undefined;
    }
  };
  const before = settings(committed.stdout);
  return before !== undefined && before === settings(current);
}

function isRendered(root: string, worktree: string, entry: DirtyEntry, own: OwnFiles): boolean {
  if (entry.status === " M") return onlyOurHooks(root, worktree, entry, own);
  if (entry.status !== "??" && entry.status !== "!!") return false;
  // git names an ignored folder once ("build/"): it is spex's only if everything in it is.
  return entry.path.endsWith("/") ? holdsOnly(worktree, entry.path, own) : own.has(entry.path);
}

/**
 * The session's work in its worktree: every change git sees, ignored files
 * included, minus spex's own renders and `alsoOwn`: the ignored files the
 * create copied in and nobody changed since (lib/workspace).
 */
export function sessionWork(root: string, worktree: string, harness: string, directory = "", alsoOwn: (rel: string) => boolean = () => false, sandboxed = false): DirtyEntry[] {
  const rendered = renderedFiles(harness, directory);
  const own: OwnFiles = { has: (rel) => rendered.has(rel) || alsoOwn(rel) };
  return worktreeChanges(root, worktree, sandboxed).filter((c) => !isRendered(root, worktree, c, own));
}
