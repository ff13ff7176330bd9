// Running a setup or teardown: each command (or the one script) in turn, in
// the worktree, each in a process group of its own so a time limit or an
// interrupt ends everything it started. What they print goes to the caller's
// sink (the pane and the log, or a buffer for close).
import { type ChildProcess, spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { join } from "node:path";
import { refuseLinks } from "../nofollow";
import { faultPoint } from "../faults";
import type { Steps } from "./config";

export interface StepsOutcome {
  ok: boolean;
  /** The exit status of the step that failed (null: it ended by a signal, or never started). */
  exit: number | null;
  /** What happened, in words: `exit 2`, `timed out after 600 s`, `interrupted (SIGINT)`. */
  reason: string;
  /** The command (or script) that failed. */
  failed: string;
  /** A signal to the runner (Ctrl-C, a hangup, a TERM) ended the run part way. */
  interrupted?: true;
}

export interface StepsRun {
  mainRoot: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** Told what runs (`$ npm ci`) and everything it prints. */
  write(chunk: string | Buffer): void;
}

/** The signals to the runner that end a run: the steps' own process group never gets them. */
const ENDING_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

const GRACE_MS = 3000;

/** Runs the step (same pid, so same group) once a line arrives on stdin; end of input without one means the runner died first. */
const STEP_GATE = 'IFS= read -r _ || exit 125; exec "$@"';

/** The argv of one step: a command for `sh -c`, or the main checkout's copy of the script (never through a link). */
function argvOf(steps: Steps, mainRoot: string): { label: string; argv: string[] }[] {
  if (steps.kind === "none") return [];
  if (steps.kind === "commands") return steps.commands.map((c) => ({ label: c, argv: ["sh", "-c", c] }));
  // The trusted copy: the main checkout's, as the config that names it.
  refuseLinks(mainRoot, steps.path);
  const path = join(mainRoot, steps.path);
  let executable = true;
  try {
    accessSync(path, constants.X_OK);
  } catch {
    executable = false;
  }
  return [{ label: steps.path, argv: executable ? [path] : ["sh", path] }];
}

/**
 * A step's group outlives a runner killed with SIGKILL (or the OOM killer),
 * which no handler sees: a teardown would run on past its time limit, and the
 * next close would cut it off part way. A small shell of its own group waits
 * for the runner to go, then ends the step's group as the time limit does.
 */
function watchOver(stepGroup: number): ChildProcess | undefined {
  const script = 'while kill -0 "$1" 2>/dev/null; do sleep 1; done; kill -TERM -"$2" 2>/dev/null || exit 0; sleep 3; kill -KILL -"$2" 2>/dev/null';
  try {
    const watchdog = spawn("sh", ["-c", script, "spex-step-watchdog", String(process.pid), String(stepGroup)], { detached: true, stdio: "ignore" });
    watchdog.on("error", () => undefined);
    watchdog.unref();
    return watchdog;
  } catch {
    return undefined;
  }
}

function endWatch(watchdog: ChildProcess | undefined): void {
  if (!watchdog?.pid) return;
  try {
    process.kill(-watchdog.pid, "SIGKILL");
  } catch {
    // already gone
  }
}

function runOne(argv: string[], run: StepsRun, deadline: number, abort: AbortSignal): Promise<{ code: number | null; signal: string | null; timedOut: boolean; aborted: boolean; error?: string }> {
  return new Promise((resolve) => {
    // Its own process group: the time limit and an interrupt end whatever it started, not only the shell.
    // The step waits at a gate until its watchdog is in place: a runner killed
    // between the two spawns closes the gate's pipe, and the step never starts.
    const child = spawn("sh", ["-c", STEP_GATE, "spex-step", ...argv], { cwd: run.cwd, env: run.env, detached: true, stdio: ["pipe", "pipe", "pipe"] });
    faultPoint("step-spawned");
    const watchdog = child.pid ? watchOver(child.pid) : undefined;
    child.stdin!.on("error", () => undefined);
    child.stdin!.end("\n");
    let timedOut = false;
    let aborted = false;
    const end = () => {
      try {
        process.kill(-child.pid!, "SIGTERM");
      } catch {
        // already gone
      }
      setTimeout(() => {
        try {
          process.kill(-child.pid!, "SIGKILL");
        } catch {
          // already gone
        }
      }, GRACE_MS).unref();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      end();
    }, Math.max(0, deadline - Date.now()));
    const onAbort = () => {
      aborted = true;
      end();
    };
    abort.addEventListener("abort", onAbort, { once: true });
    child.stdout!.on("data", (b: Buffer) => run.write(b));
    child.stderr!.on("data", (b: Buffer) => run.write(b));
    child.once("error", (e) => {
      clearTimeout(timer);
      endWatch(watchdog);
      resolve({ code: null, signal: null, timedOut, aborted, error: e.message });
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      endWatch(watchdog);
      abort.removeEventListener("abort", onAbort);
      resolve({ code, signal, timedOut, aborted });
    });
  });
}

/**
 * Run the steps in order; the first that fails ends the run. A Ctrl-C, hangup
 * or TERM to the runner meanwhile ends the running step (its process group
 * never gets the signal itself, so it would run on unwatched) and fails the run.
 */
export async function runSteps(steps: Steps, run: StepsRun): Promise<StepsOutcome> {
  const abort = new AbortController();
  const onSignal = () => abort.abort();
  for (const s of ENDING_SIGNALS) process.on(s, onSignal);
  try {
    return await runAll(steps, run, abort.signal);
  } finally {
    for (const s of ENDING_SIGNALS) process.off(s, onSignal);
  }
}

async function runAll(steps: Steps, run: StepsRun, abort: AbortSignal): Promise<StepsOutcome> {
  const deadline = Date.now() + run.timeoutMs;
  let list: { label: string; argv: string[] }[];
  try {
    list = argvOf(steps, run.mainRoot);
  } catch (e) {
    return { ok: false, exit: null, reason: (e as Error).message, failed: steps.kind === "script" ? steps.path : "" };
  }
  for (const step of list) {
    run.write(`$ ${step.label}\n`);
    const r = await runOne(step.argv, run, deadline, abort);
    if (r.code === 0 && !r.timedOut && !r.aborted) continue;
    const reason = r.timedOut
      ? `timed out after ${Math.round(run.timeoutMs / 1000)} s`
      : r.aborted
        ? "interrupted"
        : r.error
          ? `could not start: ${r.error}`
          : r.signal
            ? `ended by ${r.signal}`
            : `exit ${r.code}`;
    return { ok: false, exit: r.timedOut || r.aborted ? null : r.code, reason, failed: step.label, ...(r.aborted ? { interrupted: true as const } : {}) };
  }
  return { ok: true, exit: 0, reason: "", failed: "" };
}
