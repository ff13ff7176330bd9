// An agent that commits everything in its worktree (`git add -A`) commits the
// hook config and MCP registration spex rendered there, with this machine's
// absolute paths. merge refuses to land them on main (spex_config_committed),
// and the commit its hint gives, pasted, takes them out of the branch.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { installFakeAgents } from "../support/agents";
import { type Sandbox, sandbox } from "../support/sandbox";

let sb: Sandbox;
beforeEach(() => {
  sb = sandbox();
});
afterEach(() => sb.cleanup());

const json = (text: string) => JSON.parse(text);

function newAgentSession(launcher: string): { id: string; worktree: string } {
  const r = sb.spex(["session", "new", "--no-launch", "--launcher", launcher, "--json", "work"]);
  expect(r.stderr).toBe("");
  const s = json(r.stdout);
  return { id: s.session_id, worktree: s.worktree_path };
}

/** The command the hint gives (in backquotes), run as a person pastes it. */
function pasteFix(hint: string): void {
  const cmd = /`([^`]+)`/.exec(hint)![1]!;
  const r = spawnSync("sh", ["-c", cmd], { cwd: sb.dir, env: sb.env, encoding: "utf8" });
  expect({ code: r.status, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
}

/** merge refuses over exactly `files` and moves nothing; the hint, pasted, lets it land. What main then tracks. */
function refusedThenLanded(id: string, files: string[]): string[] {
  const mainBefore = sb.git(["rev-parse", "main"]).trim();
  const refused = sb.spex(["session", "merge", id, "--json"]);
  expect(refused.code).toBe(1);
  const error = json(refused.stdout).error;
  expect({ code: error.code, files: [...error.files].sort() }).toEqual({ code: "spex_config_committed", files });
  expect(sb.git(["rev-parse", "main"]).trim()).toBe(mainBefore);
  pasteFix(error.hint);
  const merged = sb.spex(["session", "merge", id, "--json"]);
  expect({ code: merged.code, stderr: merged.stderr }).toEqual({ code: 0, stderr: "" });
  return sb.git(["ls-tree", "-r", "--name-only", "main"]).trim().split("\n");
}

test("merge refuses a branch where the agent committed spex's rendered hooks and MCP entry (git add -A), changing nothing; the pasted hint takes them out and the work lands without them", () => {
  installFakeAgents(sb);
  const s = newAgentSession("claude");
  writeFileSync(join(s.worktree, "work.txt"), "the work\n");
  sb.git(["add", "-A"], s.worktree);
  sb.git(["commit", "-q", "-m", "the work"], s.worktree);
  expect(sb.git(["ls-tree", "-r", "--name-only", "HEAD"], s.worktree)).toContain(".claude/settings.local.json");

  const onMain = refusedThenLanded(s.id, [".claude/settings.local.json", ".mcp.json"]);
  expect(onMain).toContain("work.txt");
  expect(onMain).not.toContain(".claude/settings.local.json");
  expect(onMain).not.toContain(".mcp.json");
  // The worktree keeps spex's render (the agent's hooks still fire), and it is not work: close needs no --force.
  expect(readFileSync(join(s.worktree, ".claude", "settings.local.json"), "utf8")).toContain("spex-agent-hook");
  const closed = sb.spex(["session", "close", s.id, "--json"]);
  expect({ code: closed.code, stderr: closed.stderr }).toEqual({ code: 0, stderr: "" });
});

test("merge refuses a commit of a tracked .gemini/settings.json holding spex's hooks; the pasted hint keeps main's version and the merge then lands the rest", () => {
  installFakeAgents(sb, ["gemini"]);
  mkdirSync(join(sb.repo, ".gemini"));
  const settings = '{"theme": "dark"}\n';
  writeFileSync(join(sb.repo, ".gemini", "settings.json"), settings);
  sb.git(["add", ".gemini/settings.json"]);
  sb.git(["commit", "-q", "-m", "project settings"]);
  const s = newAgentSession("gemini");
  writeFileSync(join(s.worktree, "work.txt"), "the work\n");
  sb.git(["add", "work.txt"], s.worktree);
  sb.git(["commit", "-q", "-a", "-m", "the work"], s.worktree);

  const refused = sb.spex(["session", "merge", s.id, "--squash", "--json"]);
  expect(refused.code).toBe(1);
  const error = json(refused.stdout).error;
  expect(error).toMatchObject({ code: "spex_config_committed", files: [".gemini/settings.json"] });
  expect(sb.git(["show", "main:.gemini/settings.json"])).toBe(settings);

  pasteFix(error.hint);
  const merged = sb.spex(["session", "merge", s.id, "--squash", "--json"]);
  expect({ code: merged.code, stderr: merged.stderr }).toEqual({ code: 0, stderr: "" });
  expect(sb.git(["show", "main:.gemini/settings.json"])).toBe(settings);
  expect(sb.git(["show", "main:work.txt"])).toBe("the work\n");
});

test("a branch whose config files hold no spex render (the agent's own .claude/settings.json, a shared `spex mcp` in .mcp.json) merges as before", () => {
  installFakeAgents(sb);
  const s = newAgentSession("claude");
  mkdirSync(join(s.worktree, "docs", ".claude"), { recursive: true });
  writeFileSync(join(s.worktree, "docs", ".claude", "settings.json"), '{"permissions": {"allow": ["Bash(ls)"]}}\n');
  writeFileSync(join(s.worktree, ".mcp.json"), '{"mcpServers": {"spex": {"command": "spex", "args": ["mcp"]}}}\n');
  sb.git(["add", "docs/.claude/settings.json", ".mcp.json"], s.worktree);
  sb.git(["commit", "-q", "-m", "settings of its own"], s.worktree);
  const merged = sb.spex(["session", "merge", s.id, "--json"]);
  expect({ code: merged.code, stderr: merged.stderr }).toEqual({ code: 0, stderr: "" });
  expect(sb.git(["ls-tree", "-r", "--name-only", "main"])).toContain(".mcp.json");
});

test("merge --include-uncommitted refuses when the agent only staged spex's render (git add -A, no commit); the pasted hint unstages it and the work lands without it", () => {
  installFakeAgents(sb);
  const s = newAgentSession("claude");
  writeFileSync(join(s.worktree, "work.txt"), "the work\n");
  sb.git(["add", "-A"], s.worktree);
  const branchBefore = sb.git(["rev-parse", "HEAD"], s.worktree).trim();
  const mainBefore = sb.git(["rev-parse", "main"]).trim();

  const refused = sb.spex(["session", "merge", s.id, "--include-uncommitted", "--json"]);
  expect(refused.code).toBe(1);
  const error = json(refused.stdout).error;
  expect(error.code).toBe("spex_config_committed");
  expect(error.files.sort()).toEqual([".claude/settings.local.json", ".mcp.json"]);
  expect(sb.git(["rev-parse", "main"]).trim()).toBe(mainBefore);
  expect(sb.git(["rev-parse", "HEAD"], s.worktree).trim()).toBe(branchBefore);

  pasteFix(error.hint);
  const merged = sb.spex(["session", "merge", s.id, "--include-uncommitted", "--json"]);
  expect({ code: merged.code, stderr: merged.stderr }).toEqual({ code: 0, stderr: "" });
  const onMain = sb.git(["ls-tree", "-r", "--name-only", "main"]).trim().split("\n");
  expect(onMain).toContain("work.txt");
  expect(onMain).not.toContain(".claude/settings.local.json");
  expect(onMain).not.toContain(".mcp.json");
});

test("merge refuses a branch that commits the copy of spexcode.local.json spex put in the worktree (this machine's own settings); the pasted hint takes it out, the work lands without it, and close needs no --force", () => {
  // A notification sink's address: what a machine-local config holds and a clone must not get.
  const local = '{"notify": [{"kind": "webhook", "url": "https://hooks.example.invalid/T000/secret"}]}\n';
  writeFileSync(join(sb.repo, "spexcode.local.json"), local);
  const s = newAgentSession("shell");
  expect(readFileSync(join(s.worktree, "spexcode.local.json"), "utf8")).toBe(local);
  writeFileSync(join(s.worktree, "work.txt"), "the work\n");
  sb.git(["add", "-A"], s.worktree);
  sb.git(["commit", "-q", "-m", "the work"], s.worktree);

  const onMain = refusedThenLanded(s.id, ["spexcode.local.json"]);
  expect(onMain).toContain("work.txt");
  expect(onMain).not.toContain("spexcode.local.json");
  const closed = sb.spex(["session", "close", s.id, "--json"]);
  expect({ code: closed.code, stderr: closed.stderr }).toEqual({ code: 0, stderr: "" });
});

test("a project that tracks its spexcode.local.json merges a branch's change to it as any file", () => {
  writeFileSync(join(sb.repo, "spexcode.local.json"), '{"mainBranch": "main"}\n');
  sb.git(["add", "spexcode.local.json"]);
  sb.git(["commit", "-q", "-m", "tracked on purpose"]);
  const s = newAgentSession("shell");
  writeFileSync(join(s.worktree, "spexcode.local.json"), '{"mainBranch": "main", "ports": 2}\n');
  sb.git(["commit", "-q", "-a", "-m", "two ports"], s.worktree);
  const merged = sb.spex(["session", "merge", s.id, "--json"]);
  expect({ code: merged.code, stderr: merged.stderr }).toEqual({ code: 0, stderr: "" });
  expect(sb.git(["show", "main:spexcode.local.json"])).toContain('"ports": 2');
});
