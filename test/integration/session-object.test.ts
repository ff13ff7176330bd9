// Seed 001's session object (issue 13 item 10): rows carry the files the
// session declared in its own files.json and the bare name parts under `raw`,
// beside every field they had before.
import { afterEach, describe, expect, test } from "bun:test";
import { readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, sandbox } from "../support/sandbox";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

function sessionDir(s: Sandbox, id: string): string {
  const key = readdirSync(join(s.home, "projects"))[0]!;
  return join(s.home, "projects", key, "sessions", id);
}

const row = (s: Sandbox, id: string) => JSON.parse(s.spex(["session", "ls", "--json"]).stdout).find((r: { id: string }) => r.id === id);

describe("the session object", () => {
  test("files comes from the session's files.json, raw holds the name parts, and the fields rows always had stay", () => {
    sb = sandbox();
    const c = JSON.parse(sb.spex(["session", "new", "--launcher", "shell", "--no-launch", "--name", "auth-fixer", "--json", "fix the [[auth]] token refresh"]).stdout);
    expect(row(sb, c.session_id)).toMatchObject({ files: [], raw: { name: "auth-fixer", title: "fix the auth token refresh", node: "auth" } });
    writeFileSync(join(sessionDir(sb, c.session_id), "files.json"), JSON.stringify({ files: ["src/auth/token.ts", { path: "src/auth/refresh.ts" }] }));
    const r = row(sb, c.session_id);
    expect(r.files).toEqual(["src/auth/token.ts", "src/auth/refresh.ts"]);
    // Everything a row had before is still there, as it was.
    expect(r).toMatchObject({ kind: "ok", id: c.session_id, label: "auth-fixer", name: "auth-fixer", title: "fix the auth token refresh", node: "auth", branch: c.branch, base: null, worktree: c.worktree_path, group: "", display: "offline", queuePosition: null, directory: "", model: "", effort: "" });
    const shown = JSON.parse(sb.spex(["session", "show", c.session_id, "--json"]).stdout);
    expect(shown.files).toEqual(["src/auth/token.ts", "src/auth/refresh.ts"]);
    expect(shown.raw).toEqual({ name: "auth-fixer", title: "fix the auth token refresh", node: "auth" });
    expect(sb.spex(["session", "show", c.session_id]).stdout).toContain("files    src/auth/token.ts, src/auth/refresh.ts");
  });

  test("a files.json that is no list of paths, or a link, reads null and is never followed", () => {
    sb = sandbox();
    const c = JSON.parse(sb.spex(["session", "new", "--launcher", "shell", "--no-launch", "--json", "work"]).stdout);
    const file = join(sessionDir(sb, c.session_id), "files.json");
    writeFileSync(file, "{ not json");
    expect(row(sb, c.session_id).files).toBeNull();
    writeFileSync(file, JSON.stringify({ files: [1, 2] }));
    expect(row(sb, c.session_id).files).toBeNull();
    require("node:fs").rmSync(file);
    const secret = join(sb.dir, "secret.json");
    writeFileSync(secret, JSON.stringify(["/etc/shadow"]));
    symlinkSync(secret, file);
    expect(row(sb, c.session_id).files).toBeNull();
    expect(sb.spex(["session", "ls"]).code).toBe(0);
  });
});
