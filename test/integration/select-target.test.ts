// The tmux target `live` prints for a session's pane (`session:window.pane`)
// selects that session wherever a selector is taken, for a whole fleet: every
// governed row's target names its own session and no other. A name can never
// take a target's shape (it would need a `:`), so the tier shadows nothing.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, sandbox } from "../support/sandbox";

let sb: Sandbox;
const FLEET = 12;
let made: { id: string; tmux: string }[] = [];
let rows: { target: string; sessionId: string | null; session: string }[] = [];

beforeAll(() => {
  sb = sandbox();
  writeFileSync(join(sb.repo, "spexcode.local.json"), JSON.stringify({ sessions: { maxActive: FLEET + 2 }, launchers: { idle: { harness: "shell", command: "sh -c 'exec sleep 600' idle" } } }));
  for (let i = 0; i < FLEET; i++) {
    const r = sb.spex(["session", "new", "--launcher", "idle", "--json", `fleet member ${i}`]);
    if (r.code !== 0) throw new Error(r.stderr);
    const c = JSON.parse(r.stdout);
    made.push({ id: c.session_id, tmux: c.tmux_session });
  }
  rows = JSON.parse(sb.spex(["session", "live", "--json"], { env: { SPEX_TMUX_SERVERS: sb.tmuxSocket } }).stdout);
});
afterAll(() => sb.cleanup());

/** The id `show` resolves the selector to, or the refusal's code. */
function shown(selector: string): string {
  const out = JSON.parse(sb.spex(["session", "show", selector, "--json"]).stdout);
  return out.error ? out.error.code : out.id;
}

describe("a live target as a selector", () => {
  test("every governed row's target selects the session that row belongs to", () => {
    const governed = rows.filter((r) => r.sessionId && made.some((m) => m.id === r.sessionId));
    expect(governed).toHaveLength(FLEET);
    for (const row of governed) {
      expect(row.target).toMatch(/^[^:]+:\d+\.\d+$/);
      expect(shown(row.target)).toBe(row.sessionId!);
    }
  });

  test("the session's part alone (`name:`, `=name:0`) selects it too; an unknown target is session_not_found", () => {
    const m = made[3]!;
    expect(shown(`${m.tmux}:`)).toBe(m.id);
    expect(shown(`=${m.tmux}:0`)).toBe(m.id);
    expect(shown("no-such-session:0.0")).toBe("session_not_found");
  });

  test("a mutating verb takes the target too: stop by target stops that session only", () => {
    const row = rows.find((r) => r.sessionId === made[5]!.id)!;
    const r = sb.spex(["session", "stop", row.target, "--json"]);
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout).id).toBe(made[5]!.id);
    const listed = JSON.parse(sb.spex(["session", "ls", "--all", "--json"]).stdout) as { id: string; stopped: boolean }[];
    expect(listed.filter((x) => x.stopped).map((x) => x.id)).toEqual([made[5]!.id]);
  });

  test("a name with a colon is refused (name_invalid), at create and at rename, so no name reads as a target", () => {
    const target = `${made[0]!.tmux}:0.0`;
    const atCreate = sb.spex(["session", "new", "--no-launch", "--launcher", "idle", "--name", target, "--json", "shadow"]);
    expect(JSON.parse(atCreate.stdout).error.code).toBe("name_invalid");
    const atRename = sb.spex(["session", "rename", made[1]!.id, target, "--json"]);
    expect(JSON.parse(atRename.stdout).error.code).toBe("name_invalid");
    expect(shown(target)).toBe(made[0]!.id);
  });
});
