// `spex mcp` registered beside the hooks in every session worktree (Claude
// Code, Codex, Gemini), merged into what is there: the user's servers and
// settings are kept, a "spex" server that is not ours is never replaced, a
// file the repository tracks is never edited, a planted link is refused, and
// what spex rendered never blocks a close.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { installFakeAgents } from "../support/agents";
import { type Sandbox, SPEX_BIN, sandbox } from "../support/sandbox";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

function create(harness: string, extra: string[] = []): { session_id: string; worktree_path: string } {
  const r = sb.spex(["session", "new", "--no-launch", "--launcher", harness, ...extra, "--json", `register for ${harness}`]);
  if (r.code !== 0) throw new Error(`new failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

const readJson = (file: string) => JSON.parse(readFileSync(file, "utf8"));

/** Commit files on a branch `name` (through a scratch worktree), for a base that tracks them. */
function branchWith(name: string, files: Record<string, string>, links: Record<string, string> = {}): void {
  const scratch = join(sb.dir, `scratch-${name}`);
  sb.git(["worktree", "add", "-q", "-b", name, scratch, "main"]);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(scratch, rel, ".."), { recursive: true });
    writeFileSync(join(scratch, rel), text);
  }
  for (const [rel, target] of Object.entries(links)) {
    mkdirSync(join(scratch, rel, ".."), { recursive: true });
    symlinkSync(target, join(scratch, rel));
  }
  sb.git(["add", "-A"], scratch);
  sb.git(["commit", "-q", "-m", `files for ${name}`], scratch);
  sb.git(["worktree", "remove", scratch]);
}

function doctorCheck(name: string): { ok: boolean; detail: string } | undefined {
  return JSON.parse(sb.spex(["doctor", "--json"]).stdout).checks.find((c: { name: string }) => c.name === name);
}

describe("registering spex mcp beside the hooks", () => {
  test("claude: .mcp.json names this spex; local settings enable it and allow its tools; a re-render keeps the user's servers and settings", () => {
    sb = sandbox();
    installFakeAgents(sb, ["claude"]);
    const s = create("claude");
    const mcpFile = join(s.worktree_path, ".mcp.json");
    const local = join(s.worktree_path, ".claude", "settings.local.json");
    expect(readJson(mcpFile)).toEqual({ mcpServers: { spex: { type: "stdio", command: SPEX_BIN, args: ["mcp"] } } });
    expect(readJson(local)).toMatchObject({ enabledMcpjsonServers: ["spex"], permissions: { allow: ["mcp__spex"] } });
    expect(doctorCheck("mcp claude")).toMatchObject({ ok: true });

    // The user adds their own server and settings; a checkout in the worktree re-renders.
    const mine = { mcpServers: { ...readJson(mcpFile).mcpServers, docs: { command: "docs-server", args: ["--stdio"] } }, other: 1 };
    writeFileSync(mcpFile, JSON.stringify(mine));
    const settings = readJson(local);
    writeFileSync(local, JSON.stringify({ ...settings, enabledMcpjsonServers: ["docs"], permissions: { allow: ["Bash(npm test)"], deny: ["Read(.env)"] }, model: "x" }));
    sb.git(["checkout", "-q", "-b", "moved"], s.worktree_path);
    expect(readJson(mcpFile)).toEqual({ mcpServers: { spex: { type: "stdio", command: SPEX_BIN, args: ["mcp"] }, docs: { command: "docs-server", args: ["--stdio"] } }, other: 1 });
    expect(readJson(local)).toMatchObject({ enabledMcpjsonServers: ["docs", "spex"], permissions: { allow: ["Bash(npm test)", "mcp__spex"], deny: ["Read(.env)"] }, model: "x" });
    // Rendering again changes nothing.
    const before = [readFileSync(mcpFile, "utf8"), readFileSync(local, "utf8")];
    sb.git(["checkout", "-q", "-b", "again"], s.worktree_path);
    expect([readFileSync(mcpFile, "utf8"), readFileSync(local, "utf8")]).toEqual(before);
    // What spex rendered is not the session's work: close needs no --force.
    expect(sb.spex(["session", "close", s.session_id]).code).toBe(0);
  });

  test("claude: a user's own server named spex is kept, and spex neither replaces nor enables it", () => {
    sb = sandbox();
    installFakeAgents(sb, ["claude"]);
    const s = create("claude");
    const mcpFile = join(s.worktree_path, ".mcp.json");
    const theirs = { mcpServers: { spex: { command: "npx", args: ["some-other-spex"] } } };
    writeFileSync(mcpFile, JSON.stringify(theirs));
    sb.git(["checkout", "-q", "-b", "moved"], s.worktree_path);
    expect(readJson(mcpFile)).toEqual(theirs);
    expect(doctorCheck("mcp claude")).toMatchObject({ ok: false, detail: expect.stringContaining("not registered in 1 of 1") });
  });

  test("a .mcp.json the repository tracks is never edited (no machine path lands in a commit); a spex server it declares is enabled", () => {
    sb = sandbox();
    installFakeAgents(sb, ["claude"]);
    const tracked = JSON.stringify({ mcpServers: { docs: { command: "docs-server" } } }, null, 2) + "\n";
    branchWith("team", { ".mcp.json": tracked });
    const plain = create("claude", ["--base", "team"]);
    expect(readFileSync(join(plain.worktree_path, ".mcp.json"), "utf8")).toBe(tracked);
    expect(sb.git(["status", "--porcelain", "--untracked-files=no"], plain.worktree_path)).toBe("");
    expect(doctorCheck("mcp claude")).toMatchObject({ ok: false });

    const shared = JSON.stringify({ mcpServers: { spex: { command: "spex", args: ["mcp"] } } }) + "\n";
    branchWith("shared", { ".mcp.json": shared });
    const s = create("claude", ["--base", "shared"]);
    expect(readFileSync(join(s.worktree_path, ".mcp.json"), "utf8")).toBe(shared);
    expect(readJson(join(s.worktree_path, ".claude", "settings.local.json")).enabledMcpjsonServers).toEqual(["spex"]);
  });

  test("claude: local settings the repository tracks keep the user's permissions: nothing is registered there", () => {
    sb = sandbox();
    installFakeAgents(sb, ["claude"]);
    const settings = JSON.stringify({ permissions: { allow: ["Bash(ls)"] } });
    branchWith("team", { ".claude/settings.local.json": settings });
    const s = create("claude", ["--base", "team"]);
    expect(readJson(join(s.worktree_path, ".claude", "settings.local.json")).permissions).toEqual({ allow: ["Bash(ls)"] });
    expect(existsSync(join(s.worktree_path, ".mcp.json"))).toBe(false);
    expect(doctorCheck("mcp claude")).toMatchObject({ ok: false });
  });

  test("codex: a [mcp_servers.spex] table in the worktree's .codex/config.toml, the rest of the file kept byte for byte; a user's own table is left alone", () => {
    sb = sandbox();
    installFakeAgents(sb, ["codex"]);
    const s = create("codex");
    const config = join(s.worktree_path, ".codex", "config.toml");
    const text = readFileSync(config, "utf8");
    expect(text).toContain(`[mcp_servers.spex]\n# spex: the spex MCP server of this session's agent; spex rewrites this table\ncommand = ${JSON.stringify(SPEX_BIN)}\nargs = ["mcp"]\n`);
    expect(text).toContain('env_vars = ["SPEX_SESSION_ID", "SPEX_HOME", "SPEX_PROJECT_ROOT", "SPEX_TMUX", "SPEX_BIN"]');
    expect(text).toContain('default_tools_approval_mode = "approve"');

    // The user's settings around it survive a re-render, and the table is rewritten in place.
    const userBefore = '# my codex settings\nmodel = "o4"\n\n';
    const userAfter = '\n[mcp_servers.docs]\ncommand = "docs-server"\n';
    writeFileSync(config, userBefore + text.replace(/command = ".*"/, 'command = "/old/spex"') + userAfter);
    sb.git(["checkout", "-q", "-b", "moved"], s.worktree_path);
    expect(readFileSync(config, "utf8")).toBe(userBefore + text + userAfter);

    const own = '[mcp_servers.spex]\ncommand = "my-spex-wrapper"\nargs = ["serve"]\n';
    writeFileSync(config, own);
    sb.git(["checkout", "-q", "-b", "again"], s.worktree_path);
    expect(readFileSync(config, "utf8")).toBe(own);
    expect(sb.spex(["session", "close", s.session_id]).code).toBe(0);
  });

  test("gemini: mcpServers.spex in .gemini/settings.json beside the hooks, trusted so its tools run unasked", () => {
    sb = sandbox();
    installFakeAgents(sb, ["gemini"]);
    const s = create("gemini");
    const settings = readJson(join(s.worktree_path, ".gemini", "settings.json"));
    expect(settings.mcpServers).toEqual({ spex: { command: SPEX_BIN, args: ["mcp"], trust: true } });
    expect(Object.keys(settings.hooks)).toContain("AfterAgent");
    expect(doctorCheck("mcp gemini")).toMatchObject({ ok: true });
  });

  for (const [harness, at] of [
    ["claude", ".mcp.json"],
    ["codex", ".codex/config.toml"],
  ] as const) {
    test(`${harness}: a tracked link at ${at} refuses the session (unsafe_path) and its target keeps every byte`, () => {
      sb = sandbox();
      installFakeAgents(sb, [harness]);
      const victim = join(sb.dir, "victim.txt");
      writeFileSync(victim, "victim bytes\n");
      branchWith("pr", {}, { [at]: victim });
      const r = sb.spex(["session", "new", "--no-launch", "--launcher", harness, "--base", "pr", "--json", "review the pr"]);
      expect(r.code).toBe(1);
      expect(JSON.parse(r.stdout).error).toMatchObject({ code: "unsafe_path", path: expect.stringMatching(new RegExp(`${at.replace(".", "\\.")}$`)) });
      expect(readFileSync(victim, "utf8")).toBe("victim bytes\n");
      expect(JSON.parse(sb.spex(["session", "ls", "--json"]).stdout)).toEqual([]);
    });
  }
});
