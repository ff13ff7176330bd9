// Session groups through the built binary (DESIGN.md §9): nested groups,
// filing sessions, the group on `session ls --json` rows, removal to the root,
// and `session new --group` refusing an unknown group before anything is made.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, sandbox } from "../support/sandbox";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

function json(args: string[]): any {
  const r = sb.spex([...args, "--json"]);
  if (r.code !== 0) throw new Error(`spex ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

function groupsOfRows(): Record<string, string> {
  return Object.fromEntries(json(["session", "ls", "--all"]).map((r: any) => [r.id, r.group]));
}

describe("spex group", () => {
  test("nested groups hold filed sessions, ls shows their group, and removing the parent moves both to the root", () => {
    sb = sandbox();
    const one = json(["session", "new", "--no-launch", "--launcher", "shell", "first task"]);
    const two = json(["session", "new", "--no-launch", "--launcher", "shell", "second task"]);
    expect(json(["group", "new", "fleet", "--dir", "services"]).path).toBe("fleet");
    const nested = json(["group", "new", "fleet/api"]);
    expect(nested.effectiveDirectory).toBe("services");
    expect(nested.directory).toBe("");

    const filed = json(["group", "file", "fleet", one.session_id]);
    expect(filed).toEqual({ group: "fleet", filed: [{ id: one.session_id, from: "" }] });
    json(["group", "add-session", "fleet/api", two.session_id.slice(0, 8)]);
    expect(groupsOfRows()).toEqual({ [one.session_id]: "fleet", [two.session_id]: "fleet/api" });

    const listed = json(["group", "ls"]);
    expect(listed.map((g: any) => [g.path, g.effectiveDirectory, g.sessions])).toEqual([
      ["fleet", "services", 1],
      ["fleet/api", "services", 1],
    ]);
    const table = sb.spex(["group", "ls"]);
    expect(table.stdout.split("\n")[0]).toMatch(/^PATH\s+DIR\s+SESSIONS$/);
    expect(table.stdout).toContain("  fleet/api");

    const removal = json(["group", "rm", "fleet"]);
    expect(removal.removedGroups).toEqual(["fleet", "fleet/api"]);
    expect(removal.movedSessions).toEqual([one.session_id, two.session_id].sort());
    expect(json(["group", "ls"])).toEqual([]);
    expect(groupsOfRows()).toEqual({ [one.session_id]: "", [two.session_id]: "" });
  });

  test("filing into the root takes a session out of its group", () => {
    sb = sandbox();
    const s = json(["session", "new", "--no-launch", "--launcher", "shell", "a task"]);
    json(["group", "new", "g"]);
    json(["group", "file", "g", s.session_id]);
    expect(json(["group", "file", "/", s.session_id]).filed).toEqual([{ id: s.session_id, from: "g" }]);
    expect(groupsOfRows()[s.session_id]).toBe("");
  });

  test("group new -p makes the missing parents as mkdir -p does, and the refusal without it says so (issue 28 item 9)", () => {
    sb = sandbox();
    const refused = sb.spex(["group", "new", "teams/platform/api"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("[group_parent_missing]");
    expect(refused.stderr).toContain("spex group new -p teams/platform/api");
    const made = json(["group", "new", "-p", "teams/platform/api", "--dir", "services/api"]);
    expect([made.path, made.directory, made.created]).toEqual(["teams/platform/api", "services/api", ["teams", "teams/platform", "teams/platform/api"]]);
    expect(json(["group", "ls"]).map((g: any) => [g.path, g.directory])).toEqual([
      ["teams", ""],
      ["teams/platform", ""],
      ["teams/platform/api", "services/api"],
    ]);
    // Again: nothing to make, no error; a sibling makes only itself.
    const again = sb.spex(["group", "new", "--parents", "teams/platform/api"]);
    expect([again.code, again.stdout.trim()]).toEqual([0, "group teams/platform/api already exists"]);
    expect(json(["group", "new", "-p", "teams/platform/web"]).created).toEqual(["teams/platform/web"]);
    expect(sb.spex(["group", "new", "teams"]).stderr).toContain("[group_exists]");
  });

  test("group refusals carry stable codes: duplicate, missing parent, bad path, directory outside, unknown group", () => {
    sb = sandbox();
    json(["group", "new", "a"]);
    const cases: [string[], string][] = [
      [["group", "new", "a"], "group_exists"],
      [["group", "new", "x/y"], "group_parent_missing"],
      [["group", "new", "a//b"], "group_path_invalid"],
      [["group", "new", "b", "--dir", "../outside"], "group_directory_outside"],
      [["group", "rm", "nope"], "group_not_found"],
      [["group", "file", "nope", "whatever"], "session_not_found"],
    ];
    for (const [args, code] of cases) {
      const r = sb.spex([...args, "--json"]);
      expect(r.code).toBe(1);
      expect(JSON.parse(r.stdout).error.code).toBe(code);
      expect(r.stderr).toContain(`[${code}]`);
    }
  });

  test("session new --group files the new session; an unknown group refuses and creates nothing", () => {
    sb = sandbox();
    json(["group", "new", "fleet"]);
    const made = json(["session", "new", "--no-launch", "--launcher", "shell", "--group", "fleet", "grouped task"]);
    expect(made.group).toBe("fleet");
    expect(groupsOfRows()).toEqual({ [made.session_id]: "fleet" });

    const worktrees = sb.git(["worktree", "list", "--porcelain"]);
    const branches = sb.git(["branch", "--list"]);
    const sessionsDir = join(sb.home, "projects", readdirSync(join(sb.home, "projects"))[0]!, "sessions");
    const sessions = readdirSync(sessionsDir).sort();
    const r = sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "--group", "nope", "--json", "lost task"]);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).error.code).toBe("group_not_found");
    expect(sb.git(["worktree", "list", "--porcelain"])).toBe(worktrees);
    expect(sb.git(["branch", "--list"])).toBe(branches);
    expect(existsSync(sessionsDir) ? readdirSync(sessionsDir).sort() : []).toEqual(sessions);
  });
});
