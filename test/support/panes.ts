// Panes that show a screen we chose, as fleets for live tests and benches.
// Each pane runs `tail` under a name of our choosing (a symlink: tmux reports
// the name it was started under as the pane's command, as it does for a real
// `claude` or `node`), prints its own file and keeps running. Dead panes are
// made by ending the program once its screen shows (`endPanes`): a program
// that exits at once can lose its output to the race with tmux reading it.
import { spawnSync } from "node:child_process";
import { mkdirSync, symlinkSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "./sandbox";

export interface PaneShow {
  /** What the pane prints (its screen). */
  text: string;
  /** The pane's command as tmux reports it (default `worker`). */
  command?: string;
  /** Extra paths on the process's command line (how an agent run by `node` is recognised). */
  argv?: string[];
}

export class PaneStage {
  private n = 0;
  private readonly tail: string;

  constructor(readonly dir: string) {
    mkdirSync(join(dir, "bin"), { recursive: true });
    mkdirSync(join(dir, "screens"), { recursive: true });
    this.tail = spawnSync("sh", ["-c", "command -v tail"], { encoding: "utf8" }).stdout.trim();
  }

  private program(name: string): string {
    const path = join(this.dir, "bin", name);
    if (!existsSync(path)) symlinkSync(this.tail, path);
    return path;
  }

  /** The argv that makes a pane show `show` (tmux runs a multi-word command without a shell). */
  argv(show: PaneShow): string[] {
    const file = join(this.dir, "screens", `${++this.n}.txt`);
    writeFileSync(file, show.text.endsWith("\n") ? show.text : `${show.text}\n`);
    const extra = (show.argv ?? []).map((p) => {
      mkdirSync(join(p, ".."), { recursive: true });
      writeFileSync(p, "");
      return p;
    });
    // -q: no file headers; an empty extra file adds nothing to the screen; the
    // pane's own terminal last, so the program waits there (no -f: it would
    // use an inotify instance per pane, and a fleet runs out of them).
    return [this.program(show.command ?? "worker"), "-q", "-n", "+1", file, ...extra, "/dev/stdin"];
  }
}

/** Server options every fleet uses: dead panes stay, with no status line of tmux's own on them. */
export const FLEET_OPTIONS: string[][] = [
  ["set-option", "-g", "remain-on-exit", "on"],
  ["set-option", "-g", "remain-on-exit-format", ""],
];

export interface PaneAt extends PaneShow {
  /** Split the session's current window instead of opening a new window. */
  split?: boolean;
}

/**
 * One tmux session holding a pane per entry (the first opens the session, the
 * rest a window each, or a split), in one tmux invocation; the pane ids in order.
 */
export function openPanes(stage: PaneStage, socket: string, session: string, panes: PaneAt[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; width?: number; height?: number } = {}): string[] {
  const at = ["-P", "-F", "#{pane_id}", ...(opts.cwd ? ["-c", opts.cwd] : [])];
  const ids: string[] = [];
  let commands: string[][] = [["start-server"], ...FLEET_OPTIONS];
  // tmux refuses a command list past ~16 KB: send it in parts.
  const flush = () => {
    ids.push(...runTmux(socket, batch(commands), opts.env).split("\n").filter(Boolean));
    commands = [];
  };
  panes.forEach((p, i) => {
    const where = i === 0 ? ["new-session", "-d", "-s", session, "-x", String(opts.width ?? 160), "-y", String(opts.height ?? 50)] : p.split ? ["split-window", "-t", `=${session}:`] : ["new-window", "-t", `=${session}:`];
    commands.push([...where, ...at, ...stage.argv(p)]);
    if (commands.flat().join(" ").length > 8000) flush();
  });
  if (commands.length > 0) flush();
  return ids;
}

/** tmux commands joined into one invocation's argv. */
export function batch(commands: string[][]): string[] {
  return commands.flatMap((c, i) => (i === 0 ? c : [";", ...c]));
}

export function runTmux(socket: string, args: string[], env?: NodeJS.ProcessEnv): string {
  const r = spawnSync("tmux", ["-L", socket, "-f", "/dev/null", ...args], { encoding: "utf8", env });
  if (r.status !== 0) throw new Error(`tmux ${args.slice(0, 4).join(" ")}…: ${r.stderr}`);
  return r.stdout;
}

/** Newest non-blank line, trimmed, runs of white space as one space: what `lastVisibleLine` should say. */
export function lastLineOf(text: string): string | null {
  const lines = text.split("\n").map((l) => l.trim().replace(/\s+/g, " ")).filter(Boolean);
  return lines[lines.length - 1] ?? null;
}

/** Poll each pane with its own capture (the slow, obvious way) until it shows its last line. */
export async function waitForScreens(socket: string, expected: Map<string, string>, env?: NodeJS.ProcessEnv): Promise<void> {
  const pending = new Map(expected);
  const seen = new Map<string, string | null>();
  try {
    await waitFor(() => {
      for (const [paneId, line] of pending) {
        const r = spawnSync("tmux", ["-L", socket, "capture-pane", "-p", "-J", "-t", paneId], { encoding: "utf8", env });
        seen.set(paneId, r.status === 0 ? lastLineOf(r.stdout) : `(capture failed: ${r.stderr.trim()})`);
        if (seen.get(paneId) === line) pending.delete(paneId);
      }
      return pending.size === 0;
    }, `the panes on ${socket} to show their text`, 30000, 50);
  } catch (e) {
    const wrong = [...pending].slice(0, 5).map(([id, line]) => `${id} shows ${JSON.stringify(seen.get(id))}, not ${JSON.stringify(line)}`);
    throw new Error(`${(e as Error).message}: ${pending.size} wrong, e.g. ${wrong.join("; ")}`);
  }
}

/** End the programs of these panes (shown already): they stay as dead panes with their screen. */
export async function endPanes(socket: string, paneIds: string[], env?: NodeJS.ProcessEnv): Promise<void> {
  if (paneIds.length === 0) return;
  const want = new Set(paneIds);
  const list = () => runTmux(socket, ["list-panes", "-a", "-F", "#{pane_id} #{pane_pid} #{pane_dead}"], env).split("\n").filter(Boolean).map((l) => l.split(" "));
  for (const [id, pid] of list()) if (want.has(id!)) process.kill(Number(pid), "SIGTERM");
  await waitFor(() => list().filter(([id, , dead]) => want.has(id!) && dead === "1").length === want.size, `${want.size} panes to die`);
}
