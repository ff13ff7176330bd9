// The Node bundle is a small first file (dist/spex.cjs) that answers
// --version and the overview itself and loads the program beside it
// (dist/spex-main.cjs) for the rest: both must read as one program.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { SPEX_BIN, SPEX_CJS, type Sandbox, sandbox } from "../support/sandbox";

const node = (script: string, args: string[], sb: Sandbox) => spawnSync("node", [script, ...args], { cwd: sb.repo, env: sb.env, encoding: "utf8" });

describe("the Node bundle's two files", () => {
  let sb: Sandbox;
  let links: string;
  beforeAll(() => {
    sb = sandbox();
    links = mkdtempSync(join(tmpdir(), "spex-cjs-link-"));
  });
  afterAll(() => {
    sb.cleanup();
    rmSync(links, { recursive: true, force: true });
  });

  test("the first file and the program it loads report the same build, and help is the binary's overview", () => {
    const first = node(SPEX_CJS, ["--version", "--json"], sb);
    const program = node(join(dirname(SPEX_CJS), "spex-main.cjs"), ["--version", "--json"], sb);
    expect(first.status).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual(JSON.parse(program.stdout));
    const help = node(SPEX_CJS, ["help"], sb);
    expect(help.status).toBe(0);
    expect(help.stdout).toBe(spawnSync(SPEX_BIN, ["help"], { cwd: sb.repo, env: sb.env, encoding: "utf8" }).stdout);
    expect(help.stdout).toContain("spex session new");
  });

  test("run through a link in another folder (as on PATH), the first file still finds the program beside itself", () => {
    const link = join(links, "spex.cjs");
    symlinkSync(SPEX_CJS, link);
    const ls = node(link, ["session", "ls", "--json"], sb);
    expect(ls.stderr).toBe("");
    expect(JSON.parse(ls.stdout)).toEqual([]);
    const bad = node(link, ["session", "lss"], sb);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain("session ls");
  });
});
