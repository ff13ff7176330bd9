// Shell-harness sessions started through the built binary, the way a user
// starts them: a launcher in spexcode.json, `spex session new`, then send,
// wait and ls against the real tmux pane.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, waitFor } from "./sandbox";

/** The path of an installed program, or "" (tests skip with a message naming it). */
export function installed(program: string): string {
  return spawnSync("sh", ["-c", `command -v ${program}`], { encoding: "utf8" }).stdout.trim();
}

export interface ShellSession {
  id: string;
  worktree: string;
  tmuxSession: string;
}

/** Write a `shell`-harness launcher named `sh-under-test` and start a session with it. */
export function startShellSession(sb: Sandbox, command: string, prompt: string, env: Record<string, string> = {}, config: Record<string, unknown> = {}): ShellSession {
  writeFileSync(join(sb.repo, "spexcode.local.json"), JSON.stringify({ ...config, launchers: { "sh-under-test": { harness: "shell", command } } }));
  const r = sb.spex(["session", "new", "--launcher", "sh-under-test", "--json", prompt], { env });
  if (r.code !== 0 || r.stderr !== "") throw new Error(`session new exited ${r.code}: ${r.stderr}`);
  const created = JSON.parse(r.stdout) as { session_id: string; worktree_path: string; tmux_session: string; ready: boolean };
  if (!created.ready) throw new Error("the shell session did not come to its first prompt");
  return { id: created.session_id, worktree: created.worktree_path, tmuxSession: created.tmux_session };
}

/** The session's row as `spex session ls --json` shows it (`display`: working, idle, …). */
export function row(sb: Sandbox, id: string): { display: string; lifecycle: string; stopped: boolean } | undefined {
  const r = sb.spex(["session", "ls", "--all", "--json"]);
  const rows = JSON.parse(r.stdout) as { id: string; display: string; lifecycle: string; stopped: boolean }[];
  return rows.find((x) => x.id === id);
}

export function screen(sb: Sandbox, s: ShellSession): string {
  return sb.tmux(["capture-pane", "-p", "-t", `=${s.tmuxSession}:`]).stdout;
}

/** `spex session wait --idle`: returns once the shell is back at its prompt (exit 0). */
export function waitIdle(sb: Sandbox, s: ShellSession, timeoutS = 30): void {
  const r = sb.spex(["session", "wait", s.id, "--idle", "--timeout", String(timeoutS)]);
  if (r.code !== 0) throw new Error(`wait --idle exited ${r.code}: ${r.stdout}${r.stderr}\n--- screen ---\n${screen(sb, s)}`);
}

export function send(sb: Sandbox, s: ShellSession, text: string): string {
  const r = sb.spex(["session", "send", s.id, text]);
  if (r.code !== 0 || r.stderr !== "") throw new Error(`send exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}

/** A file the shell wrote in its worktree, once it is there. */
export async function fileFrom(s: ShellSession, name: string, timeoutMs = 20000): Promise<string> {
  const p = join(s.worktree, name);
  await waitFor(() => existsSync(p) && readFileSync(p, "utf8").endsWith("\n"), `${name} in the worktree`, timeoutMs);
  return readFileSync(p, "utf8");
}
