// What spex adds to the user's own $CODEX_HOME/config.toml: one trust table
// per hook handler of each project. A project deleted or moved leaves tables
// nothing would ever take out; the next codex create drops those that are
// provably spex's (its hash, a hooks.json that is gone) and keeps every byte
// of the user's, their own tables for gone files included.
import { afterEach, expect, test } from "bun:test";
import { readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, makeRepo, okJson, sandbox } from "../support/sandbox";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

const LAUNCHERS = JSON.stringify({ launchers: { cx: { harness: "codex", command: "sh -c 'exec sleep 600' cx" } } });
const headers = (text: string, repo: string) => text.split("\n").filter((l) => l.startsWith(`[hooks.state."${repo}/.codex/hooks.json:`));

test("the next codex create drops the trust tables of a project that is gone, and keeps the user's own", () => {
  sb = sandbox({ repo: false });
  const gone = makeRepo(join(sb.dir, "gone"), sb.env);
  const here = makeRepo(join(sb.dir, "here"), sb.env);
  for (const r of [gone, here]) writeFileSync(join(r, "spexcode.local.json"), LAUNCHERS);
  const config = join(sb.env.HOME!, ".codex", "config.toml");
  mkdirSync(join(sb.env.HOME!, ".codex"));
  const own = 'model = "o4"\n\n[hooks.state."/old/.codex/hooks.json:stop:0:0"]\ntrusted_hash = "sha256:' + "a".repeat(64) + '"\n';
  writeFileSync(config, own);

  const first = okJson(sb.spex(["session", "new", "--launcher", "cx", "--json", "one"], { cwd: gone }));
  expect(headers(readFileSync(config, "utf8"), gone).length).toBe(8);
  okJson(sb.spex(["session", "close", "--force", first.session_id, "--json"], { cwd: gone }));
  rmSync(gone, { recursive: true, force: true });

  okJson(sb.spex(["session", "new", "--launcher", "cx", "--json", "two"], { cwd: here }));
  const after = readFileSync(config, "utf8");
  expect(headers(after, gone)).toEqual([]);
  expect(headers(after, here).length).toBe(8);
  // The user's bytes, their own table for a file that is gone among them, stay as they were.
  expect(after.startsWith(own)).toBe(true);
  expect(Bun.TOML.parse(after)).toMatchObject({ model: "o4" });
});
