// With SPEX_HOME unset, spex keeps its state in ~/.spex. A HOME that names no
// folder (a container's, cron's, a typo) is refused with home_missing: spex
// never makes a user's home folder (as root, under sudo or in a container).
// A SPEX_HOME that is not absolute would be another store in every folder.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, sandbox } from "../support/sandbox";

let sb: Sandbox;
beforeEach(() => {
  sb = sandbox();
});
afterEach(() => sb.cleanup());

/** spex with SPEX_HOME unset and HOME as given. */
const withHome = (home: string, args: string[]) => sb.spex(args, { env: { SPEX_HOME: "", HOME: home } });

test("a HOME that does not exist is refused (home_missing) by ls, new, doctor and machine add, and is never made", () => {
  const missing = join(sb.dir, "nobody", "home");
  for (const args of [["session", "ls"], ["session", "new", "--no-launch", "--launcher", "shell", "hi"], ["doctor"], ["machine", "add", "box", "me@box"]]) {
    const r = withHome(missing, args);
    expect({ args, code: r.code }).toEqual({ args, code: 1 });
    expect(r.stderr).toContain("[home_missing]");
    expect(r.stderr).toContain(missing);
    expect(r.stderr).toContain("SPEX_HOME");
  }
  expect(existsSync(join(sb.dir, "nobody"))).toBe(false);
  expect(sb.git(["branch", "--list"]).trim()).toBe("* main");
});

test("a HOME that is a file is refused the same way", () => {
  const file = join(sb.dir, "home-file");
  writeFileSync(file, "");
  const r = withHome(file, ["session", "ls"]);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain("[home_missing]");
});

test("an existing HOME gets its ~/.spex, private to the user, and SPEX_HOME under a missing folder is still made as named", () => {
  const home = join(sb.dir, "someone");
  mkdirSync(home);
  const r = withHome(home, ["session", "new", "--no-launch", "--launcher", "shell", "hi"]);
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
  expect(statSync(join(home, ".spex")).mode & 0o777).toBe(0o700);
  const named = join(sb.dir, "new", "place", "spex");
  const ls = sb.spex(["session", "ls"], { env: { SPEX_HOME: named, HOME: join(sb.dir, "nobody") } });
  expect({ code: ls.code, stderr: ls.stderr }).toEqual({ code: 0, stderr: "" });
  expect(existsSync(named)).toBe(true);
});

test("a SPEX_HOME that is not absolute (a ~ nothing expanded, a relative path) is refused (spex_home_relative), nothing is made in the folder spex ran from, and the export the hint gives, pasted, works", () => {
  const home = join(sb.dir, "someone");
  mkdirSync(home);
  for (const value of ["~/.spex", "state/spex"]) {
    const r = sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "hi"], { env: { SPEX_HOME: value, HOME: home } });
    expect({ value, code: r.code }).toEqual({ value, code: 1 });
    expect(r.stderr).toContain("[spex_home_relative]");
    expect(existsSync(join(sb.repo, value.split("/")[0]!))).toBe(false);
    // The hint's export, pasted into a shell, then spex from another folder: the same, absolute, store.
    const line = /`(export SPEX_HOME=[^`]+)`/.exec(r.stderr)![1]!;
    const pasted = spawnSync("sh", ["-c", `${line} && cd / && printf '%s' "$SPEX_HOME"`], { env: { ...sb.env, HOME: home }, encoding: "utf8" });
    expect(pasted.stdout).toBe(value.startsWith("~") ? join(home, ".spex") : join(sb.repo, value));
  }
  expect(sb.git(["branch", "--list"]).trim()).toBe("* main");
});
