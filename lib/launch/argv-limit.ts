// How large a prompt the agent's command line can carry. Every harness but an
// interactive shell takes its prompt as one argv operand (claude, codex and
// gemini read it only there in an interactive session), and the kernel caps
// what exec accepts: on Linux one argument is at most 32 pages (128 KiB with
// 4 KiB pages) and argv + environment together at most ARG_MAX. A prompt past
// that cannot start an agent, so create refuses it before anything is made.
import { spawnSync } from "node:child_process";
import { SpexError } from "../errors";
import { promptSeam } from "../naming";

/** What the limit depends on; gathered once at the edge, the arithmetic is pure. */
export interface ArgvFacts {
  platform: NodeJS.Platform;
  /** sysconf(ARG_MAX): argv + environment strings (and, on Linux, their pointers). */
  argMax: number;
  pageSize: number;
  /** Bytes of the environment the agent is started with (NAME=value plus a NUL each). */
  envBytes: number;
  envCount: number;
  /** The words before the prompt: the command and its arguments. */
  words: string[];
}

// Linux never allows less than this for argv + environment, whatever the stack limit.
const LINUX_ARG_FLOOR = 128 * 1024;
// What the launch adds that this process cannot see: launch.sh's exports, tmux's
// variables, a wrapper that re-executes itself with an extra argument or two.
const UNSEEN_BYTES = 8 * 1024;
const POINTER = 8;

function strBytes(s: string): number {
  return Buffer.byteLength(s, "utf8") + 1;
}

/** The most bytes the prompt operand (after the prompt seam) may have. */
export function promptOperandLimit(f: ArgvFacts): number {
  const wordBytes = f.words.reduce((n, w) => n + strBytes(w), 0);
  // Pointers for each argument and variable, with room for the unseen ones.
  const pointers = (f.words.length + 1 + f.envCount + 64) * POINTER;
  // The operand's own NUL is counted here, hence the - 1.
  const total = f.argMax - f.envBytes - wordBytes - pointers - UNSEEN_BYTES - 1;
  // Linux's per-argument cap (MAX_ARG_STRLEN) counts the terminating NUL too.
  const perArgument = f.platform === "linux" ? 32 * f.pageSize - 1 : Infinity;
  return Math.max(0, Math.min(total, perArgument));
}

function envFacts(env: NodeJS.ProcessEnv): { envBytes: number; envCount: number } {
  let envBytes = 0;
  let envCount = 0;
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) continue;
    envBytes += strBytes(`${k}=${v}`);
    envCount++;
  }
  return { envBytes, envCount };
}

function getconf(name: string): number | undefined {
  const r = spawnSync("getconf", [name], { encoding: "utf8" });
  const n = Number.parseInt(r.stdout ?? "", 10);
  return r.status === 0 && Number.isFinite(n) && n > 0 ? n : undefined;
}

/**
 * The limit on this machine. A prompt that fits the smallest limit Linux or
 * macOS ever has is settled without spawning anything; only a larger one asks
 * getconf (ARG_MAX follows the stack limit; the per-argument cap, the page size).
 */
export function promptLimitFor(promptBytes: number, words: string[], env: NodeJS.ProcessEnv = process.env): number {
  const base = { platform: process.platform, words, ...envFacts(env) };
  const floor = promptOperandLimit({ ...base, argMax: LINUX_ARG_FLOOR, pageSize: 4096 });
  if (promptBytes <= floor) return floor;
  return promptOperandLimit({ ...base, argMax: getconf("ARG_MAX") ?? LINUX_ARG_FLOOR, pageSize: getconf("PAGESIZE") ?? 4096 });
}

/** Refuse (`prompt_too_large`) a prompt the agent's argv cannot carry; `words` are the command line before it. */
export function refusePromptTooLarge(prompt: string, words: string[], env: NodeJS.ProcessEnv = process.env): void {
  const bytes = Buffer.byteLength(promptSeam(prompt), "utf8");
  const limit = promptLimitFor(bytes, words, env);
  if (bytes <= limit) return;
  throw new SpexError(
    "prompt_too_large",
    `the prompt is ${bytes} bytes; the agent's command line holds at most ${limit} bytes of prompt on this machine (the kernel's argument limit)`,
    {
      hint: "put the long part in a file in the repository and name that file in a shorter prompt",
      details: { bytes, limit },
      httpStatus: 413,
    },
  );
}
