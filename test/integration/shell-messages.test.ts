// A shell session runs what is typed into it as a command line (DESIGN.md
// §1.10, §13: a label or a note is display text, never run). A message from
// another session, or under a `--from` name, must run only the sender's words,
// not an envelope carrying the sender's label; a watch notice (the watched
// session's label and its note, agent-written text) is never typed into a
// shell at all. Each shell with its own quoting: `;`, `$(…)`, backticks, and
// fish's `(…)`.
import { afterEach, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { type Sandbox, sandbox } from "../support/sandbox";
import { fileFrom, installed, send, startShellSession, waitIdle } from "../support/shell-sessions";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

/** Text that runs `touch <dir>/pwned-<tag>` in that shell if it is ever parsed as a command line (`;` and a comment, backticks, fish's `(…)`). */
function payload(shell: string, dir: string, tag: string): string {
  const t = `${dir}/pwned-${tag}`;
  if (shell === "bash") return `x; touch ${t}; #`;
  if (shell === "zsh") return `x \`touch ${t}\` y`;
  return `x (touch ${t}) y`;
}

const pwned = () => readdirSync(sb.dir).filter((n) => n.startsWith("pwned-"));

for (const shell of ["bash", "zsh", "fish"]) {
  const label = `${shell}: a message from a session or a --from name runs only its words, and a watch notice is not typed; nothing in a label, name or note runs`;
  if (!installed(shell)) {
    test.skip(`${label} (skipped: ${shell} is not installed here)`, () => {});
    continue;
  }
  test(label, async () => {
    sb = sandbox();
    const s = startShellSession(sb, shell, "echo started");
    waitIdle(sb, s);
    const spexJson = (args: string[], env: Record<string, string> = {}) => {
      const r = sb.spex([...args, "--json"], { env });
      if (r.code !== 0) throw new Error(`${args.join(" ")}: ${r.stderr}`);
      return JSON.parse(r.stdout);
    };
    // A session whose display name another agent chose, sending as itself.
    const sender = spexJson(["session", "new", "--no-launch", "--launcher", "shell", "--name", payload(shell, sb.dir, "label"), "a sender"]).session_id as string;
    expect(sb.spex(["session", "send", s.id, "echo one > one.txt"], { env: { SPEX_SESSION_ID: sender } }).code).toBe(0);
    expect(await fileFrom(s, "one.txt")).toBe("one\n");
    waitIdle(sb, s);
    // A name given with --from.
    expect(sb.spex(["session", "send", s.id, "--from", payload(shell, sb.dir, "from"), "echo two > two.txt"]).code).toBe(0);
    expect(await fileFrom(s, "two.txt")).toBe("two\n");
    waitIdle(sb, s);
    // A child of the shell session (so the shell watches it) whose name and note an agent wrote.
    const child = spexJson(["session", "new", "--no-launch", "--launcher", "shell", "--parent", s.id, "--name", payload(shell, sb.dir, "child"), "a child"]).session_id as string;
    // Its turn starts (a --no-launch session is stopped, and a stopped one sends no notices), then it parks.
    expect(sb.spex(["internal", "session-state", "active", "--session", child, "--new-turn"]).code).toBe(0);
    expect(sb.spex(["session", "park", "--note", payload(shell, sb.dir, "note")], { env: { SPEX_SESSION_ID: child } }).code).toBe(0);
    // Queued behind the notice (if one were typed, it would have run by the time this one has).
    send(sb, s, "echo three > three.txt");
    expect(await fileFrom(s, "three.txt")).toBe("three\n");
    waitIdle(sb, s);
    expect(pwned()).toEqual([]);
  }, 90000);
}
