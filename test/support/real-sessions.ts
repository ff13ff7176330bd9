// Helpers for e2e tests that drive a real agent CLI through `spex session new`:
// read the record and the ls row, paste into the pane, explain a timeout, and
// end every pane's process group (a CLI in a dialog may ignore SIGHUP).
import { expect } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, waitFor } from "./sandbox";

export function recordOf(sb: Sandbox, id: string): Record<string, any> {
  const [key] = readdirSync(join(sb.home, "projects"));
  return JSON.parse(readFileSync(join(sb.home, "projects", key!, "sessions", id, "session.json"), "utf8"));
}

export function rowOf(sb: Sandbox, id: string): Record<string, any> {
  return JSON.parse(sb.spex(["session", "ls", id, "--json"]).stdout)[0];
}

export function paneOf(sb: Sandbox, id: string): string {
  return `=${recordOf(sb, id).tmux_session}:`;
}

export function screenOf(sb: Sandbox, pane: string): string {
  return sb.tmux(["capture-pane", "-p", "-t", pane]).stdout;
}

/** One bracketed paste (as spex delivers text), without Enter. */
export function pasteInto(sb: Sandbox, pane: string, text: string): void {
  sb.tmux(["set-buffer", "-b", "e2e-paste", text]);
  sb.tmux(["paste-buffer", "-p", "-d", "-b", "e2e-paste", "-t", pane]);
}

/** waitFor that, on a timeout, reports the pane, the record, the hook writes and hooks.log. */
export function explainedWait(sb: Sandbox, id: string, hookWrites: () => string[]) {
  return <T>(probe: () => T | undefined | false, what: string, ms: number): Promise<T> =>
    waitFor(probe, what, ms).catch((e) => {
      const log = join(sb.home, "hooks.log");
      throw new Error(
        `${(e as Error).message}\nscreen:\n${screenOf(sb, paneOf(sb, id))}\nrecord: ${JSON.stringify(recordOf(sb, id))}\n` +
          `hook writes: ${hookWrites().join(", ")}\nhooks.log: ${existsSync(log) ? readFileSync(log, "utf8") : "-"}`,
      );
    });
}

/** SIGTERM every pane's process group on the sandbox's tmux server (before sb.cleanup kills the server). */
export function killPaneGroups(sb: Sandbox): void {
  const pids = sb.tmux(["list-panes", "-a", "-F", "#{pane_pid}"]).stdout.split("\n").map(Number).filter((n) => n > 1);
  for (const pid of pids) {
    try {
      process.kill(-pid, "SIGTERM");
    } catch {
      /* already gone */
    }
  }
}

/** `session new --sandbox` with a real CLI, checked ready and sandboxed: what new answered, its id, its pane, and a wait that explains a timeout. */
export function newSandboxed(sb: Sandbox, launcher: string, prompt: string, hookWrites: () => string[] = () => []) {
  const r = sb.spex(["session", "new", "--launcher", launcher, "--sandbox", "--json", prompt]);
  expect(r.stderr).toBe("");
  const created = JSON.parse(r.stdout);
  expect(created.ready).toBe(true);
  expect(created.sandbox).toBe("on");
  const id = created.session_id as string;
  return { created, id, pane: paneOf(sb, id), until: explainedWait(sb, id, hookWrites) };
}
