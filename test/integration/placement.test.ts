// Groups that place work (issue 13 item 5): the agent starts in its group's
// directory inside its worktree, a session an agent creates lands in its
// creator's group, and --directory names the folder explicitly — never one
// that leaves the worktree.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, sandbox, waitFor, madeBySpex } from "../support/sandbox";
import { installFakeAgents } from "../support/agents";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

/** A launcher whose agent writes the folder it started in, then stays up. */
function whereFleet(s: Sandbox): string {
  const log = join(s.dir, "where.log");
  const command = `sh -c 'printf "%s %s\\n" "$SPEX_SESSION_ID" "$PWD" >> ${log}; exec sleep 600' where`;
  writeFileSync(join(s.repo, "spexcode.local.json"), JSON.stringify({ sessions: { maxActive: 20 }, launchers: { where: { harness: "shell", command } } }));
  return log;
}

async function startedIn(log: string, id: string): Promise<string> {
  return waitFor(() => {
    const line = existsSync(log) ? readFileSync(log, "utf8").split("\n").find((l) => l.startsWith(`${id} `)) : undefined;
    return line?.slice(id.length + 1);
  }, `session ${id} to start`, 30000);
}

function create(s: Sandbox, args: string[], env: Record<string, string> = {}) {
  const r = s.spex(["session", "new", "--launcher", "where", "--json", ...args], { env });
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
}


describe("groups place work", () => {
  test("session new --group starts the agent in the group's effective directory inside its worktree", async () => {
    sb = sandbox();
    const log = whereFleet(sb);
    expect(sb.spex(["group", "new", "fleet", "--dir", "services/api"]).code).toBe(0);
    expect(sb.spex(["group", "new", "fleet/auth"]).code).toBe(0);
    const c = create(sb, ["--group", "fleet/auth", "tighten the token checks"]);
    expect(c).toMatchObject({ group: "fleet/auth", directory: "services/api" });
    expect(await startedIn(log, c.session_id)).toBe(join(c.worktree_path, "services/api"));
    const row = JSON.parse(sb.spex(["session", "ls", "--json"]).stdout)[0];
    expect(row).toMatchObject({ group: "fleet/auth", directory: "services/api" });
  });

  test("a session an agent creates lands in its creator's group (SPEX_SESSION_ID or --parent); --group / says the root", async () => {
    sb = sandbox();
    const log = whereFleet(sb);
    expect(sb.spex(["group", "new", "fleet", "--dir", "web"]).code).toBe(0);
    const boss = create(sb, ["--group", "fleet", "--no-launch", "coordinate the fleet"]);
    const byAgent = create(sb, ["a helper"], { SPEX_SESSION_ID: boss.session_id });
    expect(byAgent.group).toBe("fleet");
    expect(await startedIn(log, byAgent.session_id)).toBe(join(byAgent.worktree_path, "web"));
    const byParent = create(sb, ["--parent", boss.session_id, "another helper"]);
    expect(byParent.group).toBe("fleet");
    expect(await startedIn(log, byParent.session_id)).toBe(join(byParent.worktree_path, "web"));
    const rooted = create(sb, ["--group", "/", "not in the fleet"], { SPEX_SESSION_ID: boss.session_id });
    expect(rooted.group).toBe("");
    expect(await startedIn(log, rooted.session_id)).toBe(rooted.worktree_path);
    const groups = JSON.parse(sb.spex(["group", "ls", "--json"]).stdout);
    expect(groups.find((g: { path: string }) => g.path === "fleet").sessions).toBe(3);
  });

  test("--directory starts the agent in that folder (made when missing), over the group's, and resume starts it there again", async () => {
    sb = sandbox();
    const log = whereFleet(sb);
    expect(sb.spex(["group", "new", "fleet", "--dir", "web"]).code).toBe(0);
    const c = create(sb, ["--group", "fleet", "--directory", "tools/scripts", "write the release script"]);
    expect(c.directory).toBe("tools/scripts");
    expect(await startedIn(log, c.session_id)).toBe(join(c.worktree_path, "tools/scripts"));
    expect(sb.spex(["session", "stop", c.session_id]).code).toBe(0);
    writeFileSync(log, "");
    expect(sb.spex(["session", "resume", c.session_id]).code).toBe(0);
    expect(await startedIn(log, c.session_id)).toBe(join(c.worktree_path, "tools/scripts"));
  });

  test("a directory that leaves the worktree, or reaches out through a tracked link, is unsafe_path and nothing is made", () => {
    sb = sandbox();
    whereFleet(sb);
    const outside = join(sb.dir, "outside");
    mkdirSync(outside);
    symlinkSync(outside, join(sb.repo, "escape"));
    sb.git(["add", "escape"]);
    sb.git(["commit", "-q", "-m", "a link out of the repository"]);
    const before = madeBySpex(sb);
    for (const dir of ["../elsewhere", "/etc", "escape", "escape/deeper"]) {
      const r = sb.spex(["session", "new", "--launcher", "where", "--directory", dir, "--json", `work in ${dir}`]);
      expect({ dir, code: r.code }).toEqual({ dir, code: 1 });
      expect(JSON.parse(r.stdout).error.code).toBe("unsafe_path");
      expect(madeBySpex(sb)).toEqual(before);
    }
    expect(readdirSync(outside)).toEqual([]);
  });

  test("a Claude Code session started in a subfolder gets its hooks there, comes up ready, and its close does not count them as work", () => {
    sb = sandbox();
    installFakeAgents(sb);
    writeFileSync(join(sb.repo, "spexcode.local.json"), JSON.stringify({ sessions: { maxActive: 20 } }));
    const r = sb.spex(["session", "new", "--launcher", "claude", "--directory", "pkg/core", "--json", "fix the core"]);
    expect(r.stderr).toBe("");
    const c = JSON.parse(r.stdout);
    expect(c.ready).toBe(true);
    expect(existsSync(join(c.worktree_path, "pkg/core/.claude/settings.local.json"))).toBe(true);
    const closed = sb.spex(["session", "close", c.session_id, "--json"]);
    expect(closed.stderr).toBe("");
    expect(closed.code).toBe(0);
  });
});
