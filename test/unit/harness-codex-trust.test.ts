// Codex hook trust: the hash Codex itself computes, and the edit of
// config.toml that records it without disturbing anything else.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { spawn, spawnSync } from "node:child_process";
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { codexConfigFile, codexHookTrust, recordCodexTrust, upsertCodexTrust } from "../../lib/harness";
import { codexProjectTrustLevel, pruneCodexTrust, tableHeader } from "../../lib/harness/codex-trust";
import { runDoctor } from "../../lib/doctor";
import { projectStore } from "../../lib/store";
import { REPO_ROOT, sandbox } from "../support/sandbox";

const FILE = "/w/repo/.codex/hooks.json";
const K1 = `${FILE}:session_start:0:0`;
const K2 = `${FILE}:stop:1:0`;
const H1 = "sha256:" + "1".repeat(64);
const H2 = "sha256:" + "2".repeat(64);

const USER = [
  "# my codex config",
  'model = "o3"  # keep this comment',
  "",
  '[projects."/w/repo"]',
  'trust_level = "trusted"',
  "",
  "[tui]",
  "screen_reader_detection_done = true",
  "",
].join("\n");

const headers = (text: string, key: string) => text.split("\n").filter((l) => tableHeader(l)?.join("\0") === ["hooks", "state", key].join("\0")).length;

describe("the trust hash", () => {
  // Hashes Codex 0.171.0 wrote itself when "Trust all and continue" was chosen for these handlers.
  const command = `{ cat; echo; } >> '/tmp/explore-codex-pwdRac/hooks.jsonl'`;
  const file = "/tmp/explore-codex-pwdRac/repo/.codex/hooks.json";
  test("matches what Codex records for a handler it trusted", () => {
    expect(codexHookTrust({ hooksFile: file, event: "SessionStart", command, timeout: 600, group: 0, handler: 0 })).toEqual({
      key: `${file}:session_start:0:0`,
      hash: "sha256:e2854a4da40ea1de787da701e91e9389ad31dba937f830de779b5407d5d37dd1",
    });
    expect(codexHookTrust({ hooksFile: file, event: "PermissionRequest", command, timeout: 600, group: 0, handler: 0 }).hash).toBe(
      "sha256:2d178f045b4c6b16030b28cc7bc9a8b8b4e35b0639374d39c0bc81e81b5f6fc7",
    );
  });

  test("SessionEnd and Interrupt are hashed with the timeout clamped to 3 s, as Codex does", () => {
    const end = { hooksFile: file, event: "SessionEnd", command, group: 0, handler: 0 };
    const c44 = "sha256:c44d9821d393d7a2743ad94891ebdd36c9b7ac333d9d30223fc33338ff1d5923";
    expect(codexHookTrust({ ...end, timeout: 3 }).hash).toBe(c44);
    expect(codexHookTrust({ ...end, timeout: 600 }).hash).toBe(c44);
    expect(codexHookTrust({ ...end, event: "Interrupt", timeout: 600 }).hash).toBe("sha256:b89a8b309d8ed6e3c3e9c441d4db3bb072e9bbb373c5b9f1b63c35ccca045b5f");
  });

  test("the key names the group and handler position", () => {
    expect(codexHookTrust({ hooksFile: FILE, event: "Stop", command: "x", timeout: 600, group: 2, handler: 1 }).key).toBe(`${FILE}:stop:2:1`);
  });
});

describe("editing config.toml", () => {
  test("an empty or missing config gets one table per handler", () => {
    const e = upsertCodexTrust("", [{ key: K1, hash: H1 }, { key: K2, hash: H2 }]);
    expect(e.text).toBe(`[hooks.state."${K1}"]\ntrusted_hash = "${H1}"\n\n[hooks.state."${K2}"]\ntrusted_hash = "${H2}"\n`);
    expect(e.written).toEqual([K1, K2]);
  });

  test("new tables are appended after the user's content, which stays byte for byte", () => {
    const e = upsertCodexTrust(USER, [{ key: K1, hash: H1 }]);
    expect(e.text.startsWith(USER)).toBe(true);
    expect(e.text.slice(USER.length)).toBe(`\n[hooks.state."${K1}"]\ntrusted_hash = "${H1}"\n`);
  });

  test("a file without a final newline gets one before the appended table", () => {
    const e = upsertCodexTrust('model = "o3"', [{ key: K1, hash: H1 }]);
    expect(e.text).toBe(`model = "o3"\n\n[hooks.state."${K1}"]\ntrusted_hash = "${H1}"\n`);
  });

  test("a table spex wrote before gets only its trusted_hash line replaced", () => {
    const first = upsertCodexTrust(USER, [{ key: K1, hash: H1 }, { key: K2, hash: H1 }]).text;
    const e = upsertCodexTrust(first, [{ key: K1, hash: H2 }]);
    expect(e.written).toEqual([K1]);
    expect(e.text).toBe(first.replace(`"${K1}"]\ntrusted_hash = "${H1}"`, `"${K1}"]\ntrusted_hash = "${H2}"`));
    expect(headers(e.text, K1)).toBe(1);
  });

  test("recording the same trust twice changes nothing", () => {
    const once = upsertCodexTrust(USER, [{ key: K1, hash: H1 }, { key: K2, hash: H2 }]).text;
    const twice = upsertCodexTrust(once, [{ key: K1, hash: H1 }, { key: K2, hash: H2 }]);
    expect(twice.text).toBe(once);
    expect(twice.written).toEqual([]);
  });

  test("a header written another way (literal string, spaces, a comment, Codex's own [hooks.state]) is updated, never duplicated", () => {
    const text = `${USER}[hooks.state]\n[ hooks . state . '${K1}' ]  # trusted by hand\n  trusted_hash = "sha256:old"\nenabled = true\n`;
    const e = upsertCodexTrust(text, [{ key: K1, hash: H1 }]);
    expect(e.text).toBe(text.replace(`  trusted_hash = "sha256:old"`, `  trusted_hash = "${H1}"`));
    expect(headers(e.text, K1)).toBe(1);
  });

  test("a table without trusted_hash gets the line right under its header", () => {
    const text = `[hooks.state."${K1}"]\nenabled = true\n`;
    expect(upsertCodexTrust(text, [{ key: K1, hash: H1 }]).text).toBe(`[hooks.state."${K1}"]\ntrusted_hash = "${H1}"\nenabled = true\n`);
  });

  test("a key the user defined with dotted keys or an inline table is left alone rather than duplicated", () => {
    const dotted = `[hooks.state]\n"${K1}".trusted_hash = "sha256:mine"\n`;
    const e = upsertCodexTrust(dotted, [{ key: K1, hash: H1 }]);
    expect(e).toEqual({ text: dotted, written: [], skipped: [K1] });
    const inline = `hooks = { state = {} }\n`;
    expect(upsertCodexTrust(inline, [{ key: K2, hash: H2 }])).toEqual({ text: inline, written: [], skipped: [K2] });
  });

  test("a header-like line inside a multi-line string is not a table", () => {
    const text = `notes = """\n[hooks.state."${K1}"]\ntrusted_hash = "sha256:not-a-table"\n"""\n`;
    const e = upsertCodexTrust(text, [{ key: K1, hash: H1 }]);
    expect(e.text.startsWith(text)).toBe(true);
    expect(e.text).toContain(`"""\n\n[hooks.state."${K1}"]\ntrusted_hash = "${H1}"\n`);
  });

  test("a CRLF file gets CRLF lines", () => {
    const text = 'model = "o3"\r\n';
    expect(upsertCodexTrust(text, [{ key: K1, hash: H1 }]).text).toBe(`model = "o3"\r\n\r\n[hooks.state."${K1}"]\r\ntrusted_hash = "${H1}"\r\n`);
  });

  test("a key holding any character a folder's name can (a DEL, a quote, a backslash, controls) stays TOML a parser reads back, and is found again", () => {
    // The key names the worktree's hooks.json: a project folder's name is in it. A raw DEL made the user's own config.toml unreadable to Codex.
    const key = `/work/a\x7fb"c\\d\te\x01f\nnight shift/.codex/hooks.json:session_start:0:0`;
    const once = upsertCodexTrust(USER, [{ key, hash: H1 }]);
    const parsed = Bun.TOML.parse(once.text) as { hooks: { state: Record<string, { trusted_hash: string }> } };
    expect(parsed.hooks.state[key]).toEqual({ trusted_hash: H1 });
    const twice = upsertCodexTrust(once.text, [{ key, hash: H1 }]);
    expect([twice.text, twice.written]).toEqual([once.text, []]);
  });
});

describe("the config file", () => {
  let dir: string;
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), "spex-codex-trust-")));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test("CODEX_HOME decides where config.toml is, else ~/.codex", () => {
    expect(codexConfigFile({ CODEX_HOME: "/x/codex", HOME: "/h" })).toBe("/x/codex/config.toml");
    expect(codexConfigFile({ HOME: "/h" })).toBe("/h/.codex/config.toml");
  });

  test("a missing config.toml is created private; an existing one keeps its mode", async () => {
    const file = join(dir, "codex", "config.toml");
    await recordCodexTrust(file, [{ key: K1, hash: H1 }], join(dir, "spex"));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, "utf8")).toContain(`trusted_hash = "${H1}"`);
    const other = join(dir, "other.toml");
    writeFileSync(other, USER, { mode: 0o644 });
    await recordCodexTrust(other, [{ key: K1, hash: H1 }], join(dir, "spex"));
    expect(statSync(other).mode & 0o777).toBe(0o644);
  });

  test("a symlinked config.toml stays a symlink and its target gets the trust", async () => {
    const target = join(dir, "dotfiles", "codex.toml");
    mkdirSync(join(dir, "dotfiles"));
    mkdirSync(join(dir, "codex"));
    writeFileSync(target, USER);
    const link = join(dir, "codex", "config.toml");
    symlinkSync(target, link);
    await recordCodexTrust(link, [{ key: K1, hash: H1 }], join(dir, "spex"));
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, "utf8").startsWith(USER)).toBe(true);
    expect(readFileSync(target, "utf8")).toContain(K1);
  });

  // A container handed the host's config.toml alone (`-v ~/.codex/config.toml:…`): a file that can be written, not replaced.
  const canBindMount = spawnSync("unshare", ["-m", "true"]).status === 0;
  test.skipIf(!canBindMount)("a config.toml bind-mounted on its own gets the trust written in place, and no temporary file is left beside it", () => {
    const file = join(dir, "codex", "config.toml");
    mkdirSync(join(dir, "codex"));
    writeFileSync(file, USER);
    const host = join(dir, "host.toml");
    writeFileSync(host, USER);
    const script = join(dir, "writer.ts");
    writeFileSync(script, `import { recordCodexTrust } from ${JSON.stringify(join(REPO_ROOT, "lib/harness"))};\nawait recordCodexTrust(process.argv[2], [{ key: ${JSON.stringify(K1)}, hash: ${JSON.stringify(H1)} }], process.argv[3]);\n`);
    const bun = join(REPO_ROOT, "node_modules", ".bin", "bun");
    const r = spawnSync("unshare", ["-m", "sh", "-c", 'mount --bind "$1" "$2" && exec "$3" "$4" "$2" "$5"', "sh", host, file, bun, script, join(dir, "spex")], { encoding: "utf8" });
    expect({ code: r.status, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
    // What the container wrote is what the host's file holds.
    expect(readFileSync(host, "utf8").startsWith(USER)).toBe(true);
    expect(headers(readFileSync(host, "utf8"), K1)).toBe(1);
    expect(readdirSync(join(dir, "codex"))).toEqual(["config.toml"]);
  });

  test("concurrent writers from several processes lose no entry", async () => {
    const file = join(dir, "config.toml");
    writeFileSync(file, USER);
    const script = join(dir, "writer.ts");
    writeFileSync(
      script,
      `import { recordCodexTrust } from ${JSON.stringify(join(REPO_ROOT, "lib/harness"))};\n` +
        `const [file, home, who] = process.argv.slice(2);\n` +
        `for (let i = 0; i < 5; i++) await recordCodexTrust(file, [{ key: "/w/" + who + ":stop:" + i + ":0", hash: "sha256:" + who }], home);\n`,
    );
    const bun = join(REPO_ROOT, "node_modules", ".bin", "bun");
    await Promise.all(
      ["a", "b", "c", "d"].map(
        (who) =>
          new Promise<void>((resolve, reject) => {
            const p = spawn(bun, [script, file, join(dir, "spex"), who], { stdio: ["ignore", "ignore", "inherit"] });
            p.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`writer ${who} exited ${code}`))));
          }),
      ),
    );
    const text = readFileSync(file, "utf8");
    expect(text.startsWith(USER)).toBe(true);
    for (const who of ["a", "b", "c", "d"]) for (let i = 0; i < 5; i++) expect(headers(text, `/w/${who}:stop:${i}:0`)).toBe(1);
  });
});

describe("codex project trust", () => {
  test("reads the trust_level of a project table, whatever its header spelling", () => {
    expect(codexProjectTrustLevel(USER, "/w/repo")).toBe("trusted");
    expect(codexProjectTrustLevel(`[ projects . '/w/x' ]\ntrust_level = 'untrusted'\n`, "/w/x")).toBe("untrusted");
    expect(codexProjectTrustLevel(USER, "/w/other")).toBeUndefined();
  });

  test("spex doctor warns (without failing) when a codex launcher's project is not trusted in Codex", () => {
    const sb = sandbox();
    const saved = process.env.CODEX_HOME;
    try {
      process.env.CODEX_HOME = join(sb.dir, "codex");
      writeFileSync(join(sb.repo, "spexcode.json"), JSON.stringify({ launchers: { cx: { harness: "codex", command: "sh" } } }));
      const check = () => runDoctor(sb.home, projectStore(sb.repo, sb.home)).checks.find((c) => c.name === "codex project trust");
      expect(check()).toMatchObject({ ok: false, required: false });
      expect(check()!.detail).toContain(`'[projects."${sb.repo}"]' 'trust_level = "trusted"' >> `);
      mkdirSync(process.env.CODEX_HOME);
      writeFileSync(join(process.env.CODEX_HOME, "config.toml"), `[projects."${sb.repo}"]\ntrust_level = "trusted"\n`);
      expect(check()).toMatchObject({ ok: true });
    } finally {
      if (saved === undefined) delete process.env.CODEX_HOME;
      else process.env.CODEX_HOME = saved;
      sb.cleanup();
    }
  });
});

describe("pruning spex's dead trust tables", () => {
  const dead = (key: string, hash: string) => key.startsWith("/gone/") && hash === H1;
  test("drops a table that holds only its trusted_hash and that the caller proves dead; every other byte stays", () => {
    const text = ['model = "o4"', "", `[hooks.state."/gone/.codex/hooks.json:stop:0:0"]`, `trusted_hash = "${H1}"`, "", `[hooks.state."/w/live:stop:0:0"]`, `trusted_hash = "${H1}"`, ""].join("\n");
    const { text: out, removed } = pruneCodexTrust(text, dead);
    expect(removed).toEqual(["/gone/.codex/hooks.json:stop:0:0"]);
    expect(out).toBe(['model = "o4"', "", `[hooks.state."/w/live:stop:0:0"]`, `trusted_hash = "${H1}"`, ""].join("\n"));
    expect(pruneCodexTrust(out, dead).text).toBe(out);
  });

  test("keeps a dead table with another hash, another key, or anything beside its hash (a comment may be the user's)", () => {
    const text = [
      `[hooks.state."/gone/a:stop:0:0"]`, `trusted_hash = "${H2}"`, "",
      `[hooks.state."/gone/b:stop:0:0"]`, `trusted_hash = "${H1}"`, "enabled = true", "",
      `[hooks.state."/gone/c:stop:0:0"]`, `trusted_hash = "${H1}"`, "# my own tables follow", "",
      `[hooks.state.'/gone/d:stop:0:0']`, `trusted_hash = "${H1}"`, "",
    ].join("\r\n");
    const { text: out, removed } = pruneCodexTrust(text, dead);
    expect(removed).toEqual(["/gone/d:stop:0:0"]);
    expect(out).toBe(text.slice(0, text.indexOf("[hooks.state.'/gone/d")));
  });
});
