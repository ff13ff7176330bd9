// CLI smoke tests run against both builds (the bun binary and the Node bundle),
// and the error model of DESIGN.md §4.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { seedRecord } from "../support/records";
import { SPEX_BIN, SPEX_CJS, type Sandbox, sandbox } from "../support/sandbox";

type Runner = "bin" | "node";

for (const runner of ["bin", "node"] as Runner[]) {
  describe(`smoke (${runner === "bin" ? "bin/spex" : "node dist/spex.cjs"})`, () => {
    let sb: Sandbox;
    beforeAll(() => {
      sb = sandbox();
    });
    afterAll(() => sb.cleanup());
    const spex = (args: string[], o: { cwd?: string; input?: string; env?: Record<string, string> } = {}) => sb.spex(args, { ...o, runner });

    test("--version prints the version", () => {
      const r = spex(["--version"]);
      expect(r.code).toBe(0);
      expect(r.stdout.trim()).toMatch(/^spex \d+\.\d+\.\d+ \(commit \S+, built \S+, for \S+\)$/);
    });

    test("ls in a repository without sessions says so, and --json is an empty list", () => {
      expect(spex(["session", "ls"])).toEqual({ code: 0, stdout: "no sessions\n", stderr: "" });
      expect(JSON.parse(spex(["session", "ls", "--json"]).stdout)).toEqual([]);
    });

    test("ls lists a session with its status, label, branch and a one-line preview of its prompt", () => {
      const rec = seedRecord(sb.home, sb.repo, { prompt: "first line of the ask\nsecond line", status: "idle" });
      const r = spex(["session", "ls"]);
      expect(r.code).toBe(0);
      expect(r.stdout.split("\n")[0]).toMatch(/^ID\s+STATUS\s+AGE\s+LABEL\s+BRANCH\s+PROMPT$/);
      const line = r.stdout.split("\n").find((l) => l.startsWith(rec.session_id.slice(0, 8)))!;
      // An unnamed session's label is its title, so the prompt column shows what follows it (issue 28.6).
      expect(line).toMatch(/offline\s+\d+[smhd]\s+first line of the ask\s+spex\/first-line-of-the-ask-\w{4}\s+second line$/);
      const rows = JSON.parse(spex(["session", "ls", "--json"]).stdout);
      expect(rows[0]).toMatchObject({ id: rec.session_id, preview: "first line of the ask second line", lifecycle: "idle", display: "offline" });
      expect(rows[0]).not.toHaveProperty("prompt");
    });

    test("ls hides archived sessions unless --all, and --status filters on display status or lifecycle", () => {
      const archived = seedRecord(sb.home, sb.repo, { prompt: "archived one", archived: true }).session_id;
      const review = seedRecord(sb.home, sb.repo, { prompt: "under review", status: "awaiting", proposal: "merge" }).session_id;
      const ids = (args: string[]) => (JSON.parse(spex(["session", "ls", "--json", ...args]).stdout) as { id: string }[]).map((r) => r.id);
      expect(ids([])).not.toContain(archived);
      expect(ids(["--all"])).toContain(archived);
      expect(ids(["--status", "review"])).toEqual([review]);
      expect(ids(["--status", "awaiting,corrupt"])).toEqual([review]);
    });

    test("show prints the full record and full prompt; --json carries both", () => {
      const prompt = `long ask ${"x".repeat(2000)}\nend`;
      const rec = seedRecord(sb.home, sb.repo, { prompt });
      const shown = JSON.parse(spex(["session", "show", rec.session_id, "--json"]).stdout);
      expect(shown.prompt).toBe(prompt);
      expect(shown.record.session_id).toBe(rec.session_id);
      expect(shown.preview.length).toBeLessThanOrEqual(100);
      const human = spex(["session", "show", rec.session_id]);
      expect(human.code).toBe(0);
      expect(human.stdout).toContain(`session  ${rec.session_id}`);
      expect(human.stdout).toContain(prompt);
    });

    test("rename, done, park, ask and internal session-state change the record", () => {
      const { session_id: id } = seedRecord(sb.home, sb.repo, { prompt: "lifecycle", status: "idle" });
      const show = () => JSON.parse(spex(["session", "show", id, "--json"]).stdout);
      expect(spex(["session", "rename", id, "my-name"]).code).toBe(0);
      expect(show()).toMatchObject({ name: "my-name", label: "my-name" });
      expect(spex(["internal", "session-state", "active", "--session", id]).code).toBe(0);
      expect(show().lifecycle).toBe("active");
      expect(spex(["session", "done", "--propose", "merge", "--note", "ready", "--session", id]).stdout).toBe("my-name: awaiting (proposes merge)\n");
      expect(show()).toMatchObject({ proposal: "merge", note: "ready", display: "review" });
      expect(spex(["session", "park", "--session", id, "--note", "blocked"]).code).toBe(0);
      expect(show()).toMatchObject({ lifecycle: "parked", note: "blocked" });
      expect(spex(["session", "ask", "--session", id, "--note-file", "-"], { input: "which one?" }).code).toBe(0);
      expect(show()).toMatchObject({ lifecycle: "asking", note: "which one?" });
      expect(spex(["internal", "session-state", "active", "--session", id, "--new-turn"]).code).toBe(0);
      expect(show()).toMatchObject({ lifecycle: "active", proposal: "", note: "" });
      const again = spex(["internal", "session-state", "active", "--session", id, "--json"]);
      expect(JSON.parse(again.stdout)).toMatchObject({ id, changed: false });
    });

    test("`sessions X` is `spex session X`", () => {
      const r =
        runner === "bin"
          ? (() => {
              const link = join(sb.dir, "sessions");
              symlinkSync(SPEX_BIN, link);
              return spawnSync(link, ["ls", "--json"], { cwd: sb.repo, env: sb.env, encoding: "utf8" });
            })()
          : spawnSync("node", [SPEX_CJS, "ls", "--json"], { cwd: sb.repo, env: { ...sb.env, SPEX_ARGV0: "sessions" }, encoding: "utf8" });
      expect(r.status).toBe(0);
      expect(Array.isArray(JSON.parse(r.stdout))).toBe(true);
    });

    describe("errors", () => {
      const usage: [string, string[]][] = [
        ["an unknown verb", ["session", "frobnicate"]],
        ["a missing argument", ["session", "show"]],
        ["a bad --propose value", ["session", "done", "--propose", "maybe"]],
        ["a missing --propose", ["session", "done"]],
        ["an unknown lifecycle", ["internal", "session-state", "sleeping", "--session", "x"]],
        ["an option without its value", ["session", "park", "--note"]],
        ["both --note and --note-file", ["session", "park", "--note", "a", "--note-file", "-"]],
        ["an unknown --status", ["session", "ls", "--status", "sleepy"]],
        ["park without a note", ["session", "park", "--session", "x"]],
      ];
      for (const [what, args] of usage) {
        test(`${what} is a usage error: exit 2, one stderr line with [usage], nothing on stdout`, () => {
          const r = spex(args);
          expect(r.code).toBe(2);
          expect(r.stdout).toBe("");
          expect(r.stderr).toMatch(/^spex: [^\n]+ \[usage\]\n$/);
        });
        test(`${what} with --json also prints {"error":{"code":"usage",…}} on stdout`, () => {
          const r = spex([...args, "--json"]);
          expect(r.code).toBe(2);
          expect(JSON.parse(r.stdout).error).toMatchObject({ code: "usage", message: expect.any(String) });
          expect(r.stderr).toMatch(/^spex: [^\n]+ \[usage\]\n$/);
        });
      }

      test("a refusal exits 1 with one stderr line naming its code and a hint", () => {
        const r = spex(["session", "show", "no-such-session"]);
        expect(r.code).toBe(1);
        expect(r.stdout).toBe("");
        expect(r.stderr).toMatch(/^spex: no session matches "no-such-session"; [^\n]+ \[session_not_found\]\n$/);
        const j = spex(["session", "show", "no-such-session", "--json"]);
        expect(JSON.parse(j.stdout)).toEqual({ error: { code: "session_not_found", message: 'no session matches "no-such-session"', hint: expect.any(String) } });
      });

      test("outside a git checkout the refusal is not_a_git_repo", () => {
        const r = spex(["session", "ls"], { cwd: sb.home });
        expect(r.code).toBe(1);
        expect(r.stderr).toMatch(/\[not_a_git_repo\]\n$/);
      });

      test("an error message stays on one line even when a name carries newlines", () => {
        seedRecord(sb.home, sb.repo, { session_id: "fe000000-0000-4000-8000-000000000001", name: "two\nlines" });
        seedRecord(sb.home, sb.repo, { session_id: "fe000000-0000-4000-8000-000000000002" });
        const r = spex(["session", "show", "fe00"]);
        expect(r.code).toBe(1);
        expect(r.stderr).toMatch(/^spex: [^\n]+ \[selector_ambiguous\]\n$/);
      });

      test("output carries no colour codes even when the terminal type asks for them", () => {
        const env = { TERM: "xterm-256color", FORCE_COLOR: "3", COLORTERM: "truecolor" };
        for (const args of [["session", "frobnicate"], ["session", "ls"], ["--help"], ["session", "done", "--help"]]) {
          const r = spex(args, { env });
          expect(r.stdout + r.stderr).not.toContain("\u001b[");
        }
      });
    });
  });
}
