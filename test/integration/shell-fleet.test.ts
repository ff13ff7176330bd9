// Shell sessions at fleet scale: a dozen bash, zsh, fish and plain-command
// sessions on one tmux server, each sent a command at once. Every one shows
// working while its command runs, `wait --idle --all` returns once every one
// is back at its prompt, and each ran exactly its own command.
import { afterEach, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, sandbox, waitFor } from "../support/sandbox";
import { fileFrom, installed } from "../support/shell-sessions";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

const COMMANDS: Record<string, string> = { bash: "bash", zsh: "zsh", fish: "fish", plain: "sh -c 'exec sh' run" };
const PER_KIND = 3;

test("a dozen shell sessions of every kind each run their own command, show working meanwhile, and all come to rest", async () => {
  sb = sandbox();
  const kinds = Object.keys(COMMANDS).filter((k) => installed(COMMANDS[k]!.split(" ")[0]!));
  writeFileSync(join(sb.repo, "spexcode.local.json"), JSON.stringify({ sessions: { maxActive: 20 }, launchers: Object.fromEntries(kinds.map((k) => [k, { harness: "shell", command: COMMANDS[k] }])) }));
  const sessions: { id: string; worktree: string; tmuxSession: string; n: number }[] = [];
  for (let i = 0; i < kinds.length * PER_KIND; i++) {
    const r = sb.spex(["session", "new", "--launcher", kinds[i % kinds.length]!, "--json", `:`]);
    expect(r.stderr).toBe("");
    const c = JSON.parse(r.stdout);
    sessions.push({ id: c.session_id, worktree: c.worktree_path, tmuxSession: c.tmux_session, n: i });
  }
  const ids = sessions.map((s) => s.id);
  expect(sb.spex(["session", "wait", ...ids, "--idle", "--all", "--timeout", "60"]).code).toBe(0);

  for (const s of sessions) expect(sb.spex(["session", "send", s.id, `sleep 12; echo ${s.n} > mine.txt`]).code).toBe(0);
  const displays = () => new Map((JSON.parse(sb.spex(["session", "ls", "--json"]).stdout) as { id: string; display: string }[]).map((r) => [r.id, r.display]));
  await waitFor(() => ids.every((id) => displays().get(id) === "working"), "every session to show working", 20000, 200);

  const waited = sb.spex(["session", "wait", ...ids, "--idle", "--all", "--timeout", "90"]);
  expect(waited.code).toBe(0);
  const after = displays();
  expect(ids.map((id) => after.get(id))).toEqual(ids.map(() => "idle"));
  for (const s of sessions) expect(await fileFrom(s, "mine.txt")).toBe(`${s.n}\n`);
});
