// A user's git hook survives (DESIGN.md §13): whatever post-checkout hook
// spex finds in its place — the user's, husky's, pre-commit's, also one
// installed after spex's own — is kept byte for byte and run first, and
// `doctor` names the chain.
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, sandbox } from "../support/sandbox";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

const hooks = (s: Sandbox) => join(s.repo, ".git", "hooks");

/** A hook script that logs its name (and how deep it was called) to ran.log. */
function userHook(s: Sandbox, name: string, extra = ""): string {
  const text = `#!/bin/sh\n# ${name}: the user's own hook\necho ${name} >> '${join(s.dir, "ran.log")}'\n${extra}`;
  writeFileSync(join(hooks(s), "post-checkout"), text);
  chmodSync(join(hooks(s), "post-checkout"), 0o755);
  return text;
}

function ran(s: Sandbox): string[] {
  const log = join(s.dir, "ran.log");
  return existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : [];
}

function newSession(s: Sandbox, prompt: string): void {
  const r = s.spex(["session", "new", "--no-launch", "--launcher", "shell", prompt]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
}

/** Every byte of `text` is still in some file of the hooks folder. */
function kept(s: Sandbox, text: string): boolean {
  return readdirSync(hooks(s)).some((n) => readFileSync(join(hooks(s), n), "utf8") === text);
}

function hookCheck(s: Sandbox): { ok: boolean; detail: string } {
  return JSON.parse(s.spex(["doctor", "--json"]).stdout).checks.find((c: any) => c.name === "post-checkout hook");
}

describe("the post-checkout chain", () => {
  test("a hook installed after spex's own is chained at the next new, never replaced; both run on a checkout", () => {
    sb = sandbox();
    const first = userHook(sb, "first");
    newSession(sb, "one");
    // husky or the user installs another hook over spex's.
    const later = userHook(sb, "later");
    const replaced = hookCheck(sb);
    newSession(sb, "two");
    expect(kept(sb, first)).toBe(true);
    expect(kept(sb, later)).toBe(true);
    // doctor said so in between.
    expect(replaced.ok).toBe(false);
    expect(replaced.detail).toContain("is another hook");
    writeFileSync(join(sb.dir, "ran.log"), "");
    sb.git(["checkout", "-q", "-b", "elsewhere"]);
    expect(ran(sb)).toEqual(["first", "later"]);
    const check = hookCheck(sb);
    expect(check.ok).toBe(true);
    expect(check.detail).toContain("post-checkout.spex-chained, post-checkout.spex-chained-2");
  });

  test("a hook that runs its predecessor (pre-commit's migration mode) is chained without running anything twice", () => {
    sb = sandbox();
    userHook(sb, "first");
    newSession(sb, "one");
    // pre-commit moves the hook it finds (spex's) to post-checkout.legacy and runs it from its own.
    renameSync(join(hooks(sb), "post-checkout"), join(hooks(sb), "post-checkout.legacy"));
    const precommit = userHook(sb, "precommit", `here=$(cd "$(dirname "$0")" && pwd)\n[ -x "$here/post-checkout.legacy" ] && "$here/post-checkout.legacy" "$@"\nexit 0\n`);
    newSession(sb, "two");
    expect(kept(sb, precommit)).toBe(true);
    writeFileSync(join(sb.dir, "ran.log"), "");
    sb.git(["checkout", "-q", "-b", "elsewhere"]);
    expect(ran(sb)).toEqual(["first", "precommit"]);
  });

  test("installing again with nothing new changes no byte of the hooks folder", () => {
    sb = sandbox();
    userHook(sb, "first");
    newSession(sb, "one");
    const snapshot = () => readdirSync(hooks(sb)).sort().map((n) => [n, readFileSync(join(hooks(sb), n), "utf8")]);
    const before = snapshot();
    newSession(sb, "two");
    expect(snapshot()).toEqual(before);
  });
});

test("a core.hooksPath outside the repository that does not exist yet is made and the hook installed there (as before)", () => {
  sb = sandbox();
  const outside = join(sb.dir, "my-hooks", "git");
  sb.git(["config", "core.hooksPath", outside]);
  newSession(sb, "one");
  expect(readFileSync(join(outside, "post-checkout"), "utf8")).toContain("spex-post-checkout");
  expect(hookCheck(sb).ok).toBe(true);
});
