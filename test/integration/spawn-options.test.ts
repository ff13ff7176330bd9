// Spawn options (issue 13 item 6): --model and --effort reach the agent CLI as
// its own flags, are stored on the record and ride every resume; a harness
// without the option refuses before anything is made.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, sandbox, madeBySpex } from "../support/sandbox";
import { installFakeAgents } from "../support/agents";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

function recordText(s: Sandbox, id: string): string {
  const key = readdirSync(join(s.home, "projects"))[0]!;
  return readFileSync(join(s.home, "projects", key, "sessions", id, "session.json"), "utf8");
}


describe("spawn options", () => {
  test("--model and --effort reach Claude Code as its own flags, stay on the record, and ride the resume", () => {
    sb = sandbox();
    const agents = installFakeAgents(sb);
    const r = sb.spex(["session", "new", "--launcher", "claude", "--model", "opus", "--effort", "high", "--json", "plan the migration"]);
    expect(r.stderr).toBe("");
    const c = JSON.parse(r.stdout);
    expect(c).toMatchObject({ model: "opus", effort: "high", ready: true });
    const argvs = () => agents.entries().filter((e) => e.kind === "argv").map((e) => e.argv as string[]);
    expect(argvs()[0]).toEqual(["--session-id", c.harness_session_id, "--model", "opus", "--effort", "high", "plan the migration"]);
    expect(recordText(sb, c.session_id)).toContain('  "model": "opus",\n  "effort": "high"\n}');
    const row = JSON.parse(sb.spex(["session", "ls", "--json"]).stdout)[0];
    expect(row).toMatchObject({ model: "opus", effort: "high" });

    expect(sb.spex(["session", "stop", c.session_id]).code).toBe(0);
    const resumed = sb.spex(["session", "resume", c.session_id, "--json"]);
    expect(resumed.stderr).toBe("");
    expect(JSON.parse(resumed.stdout).resumeArgs).toEqual(["--resume", c.harness_session_id, "--model", "opus", "--effort", "high"]);
    expect(argvs().at(-1)).toEqual(["--resume", c.harness_session_id, "--model", "opus", "--effort", "high"]);
  });

  test("a session created without them keeps the record bytes it always had", () => {
    sb = sandbox();
    const c = JSON.parse(sb.spex(["session", "new", "--launcher", "shell", "--no-launch", "--json", "plain"]).stdout);
    const text = recordText(sb, c.session_id);
    expect(text).not.toContain('"model"');
    expect(text).not.toContain('"effort"');
    expect(text).not.toContain('"directory"');
    expect(text.trimEnd().split("\n").at(-2)).toStartWith('  "updatedAt": ');
  });

  test("an option the harness has no flag for, or a value it would misread, is usage (exit 2) naming what is accepted, and nothing is made", () => {
    sb = sandbox();
    installFakeAgents(sb, ["claude", "gemini"]);
    const before = madeBySpex(sb);
    const cases: [string[], string][] = [
      [["--launcher", "shell", "--model", "big"], "claude, codex, gemini"],
      [["--launcher", "gemini", "--effort", "high"], "claude, codex"],
      [["--launcher", "claude", "--effort", "turbo"], "low, medium, high, xhigh, max"],
      [["--launcher", "claude", "--model=--dangerously-skip-permissions"], "not a model name"],
    ];
    for (const [args, says] of cases) {
      const r = sb.spex(["session", "new", ...args, "--json", "refused"]);
      expect({ args, code: r.code }).toEqual({ args, code: 2 });
      expect(r.stderr).toContain("[usage]");
      expect(r.stderr).toContain(says);
      expect(madeBySpex(sb)).toEqual(before);
    }
  });
});
