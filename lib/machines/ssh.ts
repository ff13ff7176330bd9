// The one way spex reaches another machine: OpenSSH, as the user already runs
// it. Every call is non-interactive (BatchMode), bounded while connecting
// (ConnectTimeout) and shares one connection per machine (ControlMaster), so a
// second call on a host costs no handshake. SPEX_SSH_COMMAND replaces `ssh`
// the way GIT_SSH_COMMAND does for git: the shell splits it, our arguments follow.
import { spawn } from "node:child_process";
import { lstatSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { SpexError, errnoCode } from "../errors";
import { spexHome } from "../store";
import type { Machine } from "./list";
import { sha256Hex } from "../hash";
import { commandLine } from "../tmux/quote";

/** sun_path is 104 bytes on the BSDs and macOS (108 on Linux); ssh adds 17 for its temporary name. */
const SOCKET_PATH_MAX = 103;
const SSH_TEMP_SUFFIX = 17;

function envSeconds(name: string, fallback: number): number {
  const n = Number(process.env[name]);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

/** A folder only we can use (a real folder, ours, closed to others), made if missing; false when it is not. */
function privateFolder(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    const uid = process.getuid?.() ?? st.uid;
    return st.isDirectory() && !st.isSymbolicLink() && st.uid === uid && (st.mode & 0o077) === 0;
  } catch {
    return false;
  }
}

/**
 * Does ssh read `-o ControlPath=<path>` as this path? It splits the option
 * like a config line (a blank ends the value: "extra arguments at end of
 * line", and every call fails), reads quotes and backslashes, and expands
 * `%` tokens (`%b` is refused, `%h` is the host) and `${VAR}`. A SPEX_HOME
 * under a home folder named "John Smith" is one with a blank.
 */
function readAsIs(path: string): boolean {
  return !/[\s"'\\%$#]/.test(path);
}

/**
 * Where the shared connection to a machine listens: a short hashed name under
 * SPEX_HOME, or under /tmp when SPEX_HOME is too deep for a unix socket or
 * holds what ssh would read otherwise (a blank, a quote, `%`, `$`);
 * undefined (no sharing) when neither folder is private to us.
 */
export function controlPath(machine: Machine, home = spexHome()): string | undefined {
  const key = sha256Hex([home, machine.destination, String(machine.port ?? ""), process.env.SPEX_SSH_COMMAND ?? ""].join("\u0000")).slice(0, 16);
  const inHome = join(home, "ssh");
  const uid = process.getuid?.() ?? 0;
  for (const dir of [inHome, `/tmp/spex-ssh-${uid}`]) {
    const path = `${dir}/${key}`;
    if (Buffer.byteLength(path) + SSH_TEMP_SUFFIX > SOCKET_PATH_MAX || !readAsIs(path)) continue;
    if (privateFolder(dir)) return path;
  }
  return undefined;
}

export interface SshInvocation {
  file: string;
  args: string[];
}

/** The process that runs `remoteCommand` (one string, for the remote user's POSIX shell) on `machine`. */
export function sshInvocation(machine: Machine, remoteCommand: string, opts: { tty?: boolean; home?: string } = {}): SshInvocation {
  const control = controlPath(machine, opts.home);
  const args = [
    "-o", "BatchMode=yes",
    "-o", `ConnectTimeout=${envSeconds("SPEX_SSH_CONNECT_TIMEOUT", 5)}`,
    // A host that vanishes mid-call (no reset, packets dropped) is given up on in about 30 s, not the TCP timeout.
    "-o", "ServerAliveInterval=10", "-o", "ServerAliveCountMax=3",
    ...(control
      ? ["-o", "ControlMaster=auto", "-o", `ControlPath=${control}`, "-o", `ControlPersist=${envSeconds("SPEX_SSH_PERSIST", 300)}`]
      : ["-o", "ControlMaster=no", "-o", "ControlPath=none"]),
    ...(machine.port !== null ? ["-p", String(machine.port)] : []),
    opts.tty ? "-t" : "-T",
    "--",
    machine.destination,
    remoteCommand,
  ];
  const custom = process.env.SPEX_SSH_COMMAND?.trim();
  // As git runs GIT_SSH_COMMAND: through sh, with our arguments appended as "$@".
  if (custom) return { file: "sh", args: ["-c", `${custom} "$@"`, "spex-ssh", ...args] };
  return { file: "ssh", args };
}

/** Ask a machine's shared connection to end (after `machine rm`); quiet when there is none. */
export function closeConnection(machine: Machine, home = spexHome()): Promise<void> {
  const control = controlPath(machine, home);
  if (!control) return Promise.resolve();
  const { file, args } = sshInvocation(machine, "true", { home });
  // `-O exit` takes the destination and no command: drop our trailing `-- dest cmd` for it.
  const head = args.slice(0, args.indexOf("--"));
  const call = spawn(file, [...head, "-O", "exit", "--", machine.destination], { stdio: "ignore" });
  return new Promise((resolve) => {
    call.once("error", () => resolve());
    call.once("close", () => resolve());
  });
}

export interface SshResult {
  code: number;
  stdout: Buffer;
  stderr: string;
}

/**
 * The most a remote may answer on stdout: `live --json` of a few hundred panes
 * or a long scrollback read is a few MB; past this the call is ended and
 * refused, never buffered whole (a hostile or broken host once made spex hold
 * 300 MB and grow to nearly 1 GB).
 */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;
/** What is kept of a remote's stderr (its complaints are read, not stored). */
export const MAX_STDERR_BYTES = 1024 * 1024;

export interface SshRunOptions {
  /** Bytes for the remote's stdin, a file descriptor to stream from, or "inherit" (this process's stdin). */
  stdin?: Buffer | number | "inherit";
  tty?: boolean;
  /** Give up after this long (the call is killed and counts as unreachable). */
  timeoutMs?: number;
  home?: string;
  /** Refuse an answer longer than this many bytes (default MAX_ANSWER_BYTES). */
  maxAnswerBytes?: number;
}

export function answerTooLarge(machine: Machine, limit: number): SpexError {
  return new SpexError("machine_answer_too_large", `machine ${machine.name} answered more than ${limit} bytes; the call was ended and its answer dropped`, {
    hint: `narrow what you ask (filters, a smaller --history); if that machine's spex is not this one, \`spex machine install ${machine.name}\` puts this one there`,
    details: { machine: machine.name, limit },
  });
}

/** One line of an ssh complaint, for an error message (which holds no line breaks). */
export function oneLineOf(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

export function unreachable(machine: Machine, why: string): SpexError {
  return new SpexError("machine_unreachable", `machine ${machine.name} (${machine.destination}) did not answer: ${oneLineOf(why) || "ssh failed"}`, {
    hint: `check that \`${commandLine(["ssh", ...(machine.port !== null ? ["-p", String(machine.port)] : []), machine.destination, "true"])}\` works without a prompt (BatchMode: keys loaded, host key known)`,
    details: { machine: machine.name },
  });
}

/** Run a remote command; exit 255 (ssh's own failure) throws machine_unreachable, every other code is the remote's. */
export function runSsh(machine: Machine, remoteCommand: string, opts: SshRunOptions = {}): Promise<SshResult> {
  const { file, args } = sshInvocation(machine, remoteCommand, { tty: opts.tty, home: opts.home });
  const interactive = opts.tty === true;
  const stdin = opts.stdin === "inherit" || interactive ? "inherit" : typeof opts.stdin === "number" ? opts.stdin : opts.stdin ? "pipe" : "ignore";
  const child = spawn(file, args, { stdio: interactive ? "inherit" : [stdin, "pipe", "pipe"] });
  if (Buffer.isBuffer(opts.stdin)) {
    child.stdin!.on("error", () => {}); // a remote that stops reading is reported by its exit code
    child.stdin!.end(opts.stdin);
  }
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const limit = opts.maxAnswerBytes ?? MAX_ANSWER_BYTES;
  let outBytes = 0;
  let errBytes = 0;
  let tooLarge = false;
  child.stdout?.on("data", (b: Buffer) => {
    if (tooLarge) return;
    outBytes += b.length;
    if (outBytes > limit) {
      // Ended at once and nothing more kept: the answer is refused whole, never buffered.
      tooLarge = true;
      out.length = 0;
      child.kill("SIGKILL");
      return;
    }
    out.push(b);
  });
  child.stderr?.on("data", (b: Buffer) => {
    if (errBytes >= MAX_STDERR_BYTES) return;
    const kept = b.subarray(0, MAX_STDERR_BYTES - errBytes);
    errBytes += kept.length;
    err.push(kept);
  });
  return new Promise((resolve, reject) => {
    let timedOut = false;
    const timer = opts.timeoutMs === undefined ? undefined : setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, opts.timeoutMs);
    child.once("error", (e) => {
      if (timer) clearTimeout(timer);
      reject(errnoCode(e) === "ENOENT"
        ? new SpexError("ssh_missing", `${file} is not installed here`, { hint: "install OpenSSH's client (openssh-client), or set SPEX_SSH_COMMAND" })
        : e);
    });
    child.once("close", (code, signal) => {
      if (timer) clearTimeout(timer);
      const stderr = Buffer.concat(err).toString("utf8");
      if (tooLarge) return reject(answerTooLarge(machine, limit));
      if (timedOut) return reject(unreachable(machine, `no answer within ${opts.timeoutMs} ms`));
      if (code === 255 || code === null) return reject(unreachable(machine, stderr || (signal ? `ssh ended by ${signal}` : "")));
      resolve({ code, stdout: Buffer.concat(out), stderr });
    });
  });
}
