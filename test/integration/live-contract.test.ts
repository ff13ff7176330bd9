// The live/bulk contract as its consumers read it (seeds/000, typed the way
// the reference implementation's users type it): real output type-checks
// against test/support/sessions-contract.ts with tsc, unknown values are null,
// slugs and machine names are what a consumer compares against, the short
// flags exist, and live answers even where spexcode.json is broken.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { REPO_ROOT, type Sandbox, makeRepo, sandbox } from "../support/sandbox";
import { seedRecord } from "../support/records";
import { PaneStage, endPanes, openPanes, waitForScreens } from "../support/panes";

let sb: Sandbox;
let env: Record<string, string>;

beforeAll(async () => {
  sb = sandbox();
  env = { SPEX_TMUX_SERVERS: sb.tmuxSocket };
  const stage = new PaneStage(join(sb.dir, "stage"));
  const worktree = join(sb.repo, ".worktrees", "gov");
  mkdirSync(worktree, { recursive: true });
  seedRecord(sb.home, sb.repo, { worktree_path: worktree, tmux_socket: sb.tmuxSocket, tmux_session: "gov", status: "idle" });
  const [gov] = openPanes(stage, sb.tmuxSocket, "gov", [{ text: "  dev@box:~/gov$   ls   -la  " }], { cwd: worktree });
  // A blank screen, a pane that has ended (tmux no longer knows its folder), and a pane outside any repository.
  const [blank, ended] = openPanes(stage, sb.tmuxSocket, "Odd Name!", [{ text: "" }, { text: "last words" }], { cwd: sb.repo });
  const [root] = openPanes(stage, sb.tmuxSocket, "at-root", [{ text: "in /" }], { cwd: "/" });
  await waitForScreens(sb.tmuxSocket, new Map([[gov!, "dev@box:~/gov$ ls -la"], [ended!, "last words"], [root!, "in /"]]));
  await endPanes(sb.tmuxSocket, [ended!]);
  void blank;
});

afterAll(() => sb?.cleanup());

function json(args: string[], extra: Record<string, string> = {}, cwd?: string): any {
  const r = sb.spex([...args, "--json"], { env: { ...env, ...extra }, cwd });
  if (r.stdout === "") throw new Error(`${args.join(" ")}: exit ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/**
 * tsc's verdict on assigning each value to the named contract type (extra
 * fields allowed, as for any JSON consumer): one tsc run over one file per
 * name, its diagnostics by that name ("" when the file type-checks).
 */
function typeCheck(files: Record<string, Array<[type: string, value: unknown]>>): Record<string, string> {
  const paths = Object.keys(files).map((name) => {
    const file = join(sb.dir, `${name}.ts`);
    const lines = [
      `import type { BulkEnvelope, LivePane } from ${JSON.stringify(join(REPO_ROOT, "test", "support", "sessions-contract"))};`,
      // Infers the value's own type (literals kept by the constraint), then requires it to be assignable to T.
      "const accepts = <T,>() => <U extends T>(value: U): U => value;",
      ...files[name]!.map(([type, value], i) => `export const v${i} = accepts<${type}>()(${JSON.stringify(value)});`),
    ];
    writeFileSync(file, lines.join("\n") + "\n");
    return file;
  });
  const tsc = join(REPO_ROOT, "node_modules", ".bin", "tsc");
  const r = spawnSync(tsc, ["--noEmit", "--strict", "--skipLibCheck", "--target", "es2022", "--module", "esnext", "--moduleResolution", "bundler", ...paths], { encoding: "utf8" });
  const lines = (r.stdout + r.stderr).split("\n");
  return Object.fromEntries(Object.keys(files).map((name) => [name, lines.filter((l) => l.includes(`${name}.ts(`)).join("\n")]));
}

test("live --json and bulk --json type-check against the contract's interfaces; output that breaks it does not", async () => {
  // A session of its own project, for the one run that really acts (a queued entry).
  const other = makeRepo(join(sb.dir, "victim-repo"), sb.env);
  const worktree = join(other, ".worktrees", "victim");
  mkdirSync(worktree, { recursive: true });
  seedRecord(sb.home, other, { worktree_path: worktree, tmux_socket: sb.tmuxSocket, tmux_session: "victim", status: "idle" });
  const [pane] = openPanes(new PaneStage(join(sb.dir, "stage-victim")), sb.tmuxSocket, "victim", [{ text: "victim at rest" }], { cwd: worktree });
  await waitForScreens(sb.tmuxSocket, new Map([[pane!, "victim at rest"]]));
  const ours: Array<[string, unknown]> = [
    ["LivePane[]", json(["session", "live"])],
    ["BulkEnvelope", json(["session", "bulk", "status"])],
    ["BulkEnvelope", json(["session", "bulk", "capture", "--status", "idle,dead"])],
    ["BulkEnvelope", json(["session", "bulk", "doctor"])],
    ["BulkEnvelope", json(["session", "bulk", "stop", "--status", "idle", "--dry-run"])],
    ["BulkEnvelope", json(["session", "bulk", "stop", "-p", "victim-repo", "--status", "idle", "--yes", "--no-queue", "--max-load-per-core", "1000"])],
  ];
  const acted = ours[5]![1] as any;
  expect(acted.entries.map((e: any) => [e.target, e.decision, e.queue])).toEqual([["victim:0.0", "queued", "local"]]);
  // The checker can fail: what spex printed before, a null limit and an "inline" queue.
  const broken = structuredClone(ours[1]![1]) as any;
  broken.guard.hints.maxActiveAgents = null;
  broken.entries[0].queue = "inline";
  const verdict = typeCheck({ ours, broken: [["BulkEnvelope", broken]] });
  expect(verdict.ours).toBe("");
  expect(verdict.broken).toContain("Type 'null' is not assignable to type 'number'");
  expect(verdict.broken).toContain(`Type '"inline"' is not assignable to type '"none" | "local"'`);
});

test("unknown folders and blank screens are null; slugs are slugs, never empty; lines are trimmed and collapsed", () => {
  const rows = json(["session", "live"]);
  const by = (session: string, paneIndex = "0") => rows.find((r: any) => r.session === session && r.target.endsWith(`.${paneIndex}`) && (paneIndex !== "0" || !r.paneDead));
  expect(by("gov")).toMatchObject({ lastVisibleLine: "dev@box:~/gov$ ls -la", projectPath: sb.repo, projectSlug: "repo" });
  const odd = rows.filter((r: any) => r.session === "Odd Name!");
  const blank = odd.find((r: any) => !r.paneDead);
  const ended = odd.find((r: any) => r.paneDead);
  expect(blank).toMatchObject({ lastVisibleLine: null, projectSlug: "repo", status: "active" });
  expect(ended).toMatchObject({ cwd: null, projectPath: null, projectSlug: "odd-name", status: "dead", lastVisibleLine: "last words" });
  expect(by("at-root")).toMatchObject({ cwd: "/", projectPath: "/", projectSlug: "at-root" });
});

test("machine is the short host name unless SPEX_MACHINE names it; --machine/-m ignore case", () => {
  expect(json(["session", "live"])[0].machine).toBe(hostname().split(".")[0]);
  const named = { SPEX_MACHINE: "Build-Box-7" };
  expect(new Set(json(["session", "live"], named).map((r: any) => r.machine))).toEqual(new Set(["Build-Box-7"]));
  expect(json(["session", "live", "-m", "build-box-7"], named).length).toBe(4);
  expect(json(["session", "live", "--machine", "BUILD-BOX-7"], named).length).toBe(4);
  expect(json(["session", "live", "-m", "other-box"], named)).toEqual([]);
  const bulk = json(["session", "bulk", "status", "-m", "build-box-7"], named);
  expect(bulk.summary.selected).toBe(4);
  expect(bulk.entries[0].machine).toBe("Build-Box-7");
});

test("--project/-p matches a substring of the project path or slug", () => {
  const sessions = (args: string[]) => json(["session", "live", ...args]).map((r: any) => r.session).sort();
  expect(sessions(["-p", "rep"])).toEqual(["Odd Name!", "gov"]);
  expect(sessions(["--project", "REPO"])).toEqual(["Odd Name!", "gov"]);
  expect(sessions(["-p", "odd-na"])).toEqual(["Odd Name!"]);
  expect(sessions(["-p", sb.repo])).toEqual(["Odd Name!", "gov"]);
  expect(sessions(["-p", "no-such-project"])).toEqual([]);
  expect(json(["session", "bulk", "status", "-p", "rep"]).summary.selected).toBe(2);
});

test("bulk: limits are numbers with the contract's defaults, statuses null unless given, and an unconfirmed mutation exits 1", () => {
  const status = json(["session", "bulk", "status"]);
  expect(status.guard.hints).toMatchObject({ maxActiveAgents: 12, maxLoadPerCore: 1.5, maxLoad1: null });
  expect(status.filters).toEqual({ openOnly: false, statuses: null, project: null, machine: null });
  expect(json(["session", "bulk", "status", "--max-active-agents", "3", "--status", "dead"]).guard.hints.maxActiveAgents).toBe(3);
  expect(sb.spex(["session", "bulk", "status", "--max-active-agents", "none"], { env }).code).toBe(2);
  // Nothing is idle and open here but the governed pane; a project with no panes selects nothing: still refused.
  for (const args of [["stop", "--status", "idle"], ["stop", "-p", "no-such-project"], ["restart"]]) {
    const r = sb.spex(["session", "bulk", ...args], { env });
    expect({ args, code: r.code }).toEqual({ args, code: 1 });
    expect(r.stderr).toContain("--yes");
  }
  expect(sb.spex(["session", "bulk", "stop", "-p", "no-such-project", "--dry-run"], { env }).code).toBe(0);
});

test("a broken spexcode.json where live is run is a warning: live and bulk status still answer for the machine", () => {
  const broken = join(sb.dir, "broken");
  mkdirSync(broken);
  spawnSync("git", ["init", "-q", broken]);
  writeFileSync(join(broken, "spexcode.json"), "{ not json");
  for (const args of [["session", "live"], ["session", "live", "--watch", "--count", "1"], ["session", "bulk", "status"]]) {
    const r = sb.spex([...args, "--json"], { env, cwd: broken });
    expect({ args, code: r.code }).toEqual({ args, code: 0 });
    expect(r.stderr).toContain("spexcode.json");
    expect(r.stderr).toContain("using the defaults");
    expect(r.stdout).toContain("gov");
  }
});
