// Quarantine: the recovery control for an unreadable record (DESIGN.md §6). It
// re-proves at execution time that everything the caller claims is gone is
// gone, then moves only session.json (byte exact) plus the claim and the
// observed proof into quarantine/<id>/<timestamp>/. It never signals and never
// removes a worktree or branch. Restore is the exact reverse.
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SpexError, errnoCode } from "../errors";
import { isHarnessName, HARNESS_NAMES, builtinCommand, harnessAdapter } from "../harness";
import { loadConfig } from "../config";
import { firstWord, whichSync } from "../launch/launcher";
import { withLock } from "../lock";
import { dropListingEntries, fsyncDir, readOwnBytes, readSession } from "../record";
import { type ProjectStore, listSessionIds, recordLockPath, sessionPaths } from "../store";
import { exactSession, spexSocket, tmuxSync } from "../tmux";
import { tmuxCommandLine } from "../tmux/quote";
import { branchExists } from "./git";
import { probe, readAgentPidFile } from "./leaf";
import { timed } from "./timing";
import { liveThreadHolders } from "./thread";

export interface QuarantineClaim {
  adapter: string;
  /** The adapter's native conversation id; "" says there is none. */
  thread: string;
  tmux: string;
  worktree: string;
  branch: string;
}

export interface QuarantineProof {
  observedAt: string;
  leaf: { agentPidFile: boolean; pid: number | null; state: "none" | "dead" };
  tmux: { socket: string; session: string; present: false };
  worktree: { path: string; present: false };
  branch: { name: string; present: false };
  /** Known, and its program resolves on this machine right now (the executable it found). */
  adapter: { name: string; known: true; program: string; executable: string };
  thread: { id: string; liveHolders: number[] } | null;
  record: { kind: "corrupt"; parseError: string; bytes: number };
}

export interface QuarantineResult {
  id: string;
  bundle: string;
  bytes: number;
  claim: QuarantineClaim;
  proof: QuarantineProof;
}

/** Ids are folder names under sessions/: refuse anything that could name another path. */
function checkId(id: string): void {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(id) || id.includes("..")) {
    throw new SpexError("usage", `"${id}" is not a session id`, { hint: "give the full session id as shown by `spex session ls`", exitCode: 2, httpStatus: 400 });
  }
}

function refuse(code: string, message: string, hint: string, details: Record<string, unknown> = {}): SpexError {
  return new SpexError(code, `${message}; nothing was moved`, { hint, details });
}

/** The size of the record's own bytes; a directory, link or fifo in its place has none. */
function recordBytes(file: string): number {
  const got = readOwnBytes(file);
  return "bytes" in got ? got.bytes.length : 0;
}

function stamp(d = new Date()): string {
  return d.toISOString().replace(/:/g, "-");
}

/**
 * A healthy adapter is one whose program resolves here now: the command of the
 * project's launcher of that name when it runs this harness, else the built-in
 * one. A name alone proves nothing about the machine the adapter must act on.
 */
function adapterHealth(store: ProjectStore, name: string): { program: string; executable: string } {
  const configured = loadConfig(store.root).launchers[name];
  const command = configured?.harness === name && configured.command ? configured.command : builtinCommand(harnessAdapter(name), process.env, (p) => whichSync(p));
  const program = firstWord(command);
  const executable = program ? whichSync(program) : undefined;
  if (!executable) {
    throw refuse("adapter_unhealthy", `the adapter ${name} runs "${program || command}", which is not an executable on PATH here`, `install it or put it on PATH (or fix launchers.${name}.command in spexcode.json), then run quarantine again`, { adapter: name, program: program || command });
  }
  return { program, executable };
}

/** Every claim re-proved now; the first that fails refuses. */
function prove(store: ProjectStore, id: string, claim: QuarantineClaim): QuarantineProof {
  const reading = readSession(store, id);
  if (reading.kind === "absent") {
    throw refuse("record_absent", `session ${id} has no record to quarantine`, "check the id with `spex session ls`");
  }
  if (reading.kind === "ok") {
    throw refuse("record_readable", `the record of session ${id} is readable: quarantine is only for records nothing can parse`, `stop or close it instead: spex session close ${id.slice(0, 8)}`);
  }
  if (!isHarnessName(claim.adapter)) {
    throw refuse("adapter_unknown", `"${claim.adapter}" is not a known adapter`, `name the adapter the record was made by: one of ${HARNESS_NAMES.join(", ")}`);
  }
  // The thread is the adapter's own conversation id, never a spex session id (this one's or another's):
  // naming one would make the thread proof look for the wrong process.
  if (claim.thread && (claim.thread.toLowerCase() === id.toLowerCase() || listSessionIds(store).includes(claim.thread.toLowerCase()))) {
    throw new SpexError("thread_invalid", `"${claim.thread}" is a spex session id${claim.thread.toLowerCase() === id.toLowerCase() ? " (this session's own)" : ""}, not the adapter's native conversation id; nothing was moved`, {
      hint: "give --thread the harness's own conversation id (harness_session_id in the record's bytes), or omit it when the adapter had none",
      details: { thread: claim.thread },
      exitCode: 2,
      httpStatus: 400,
    });
  }
  const adapter = adapterHealth(store, claim.adapter);
  const pidFile = readAgentPidFile(sessionPaths(store, id).agentPid);
  if (pidFile && probe({ ...pidFile, source: "agent.pid" }) !== "dead") {
    throw refuse("leaf_present", `the session's leaf process ${pidFile.pid} (from agent.pid) is alive`, "end that process first; quarantine never signals anything", { pid: pidFile.pid });
  }
  const socket = spexSocket();
  if (timed("tmux", () => tmuxSync(socket, ["has-session", "-t", exactSession(claim.tmux)]).code === 0)) {
    throw refuse("tmux_present", `the tmux session ${claim.tmux} exists on socket ${socket}`, `end it first (${tmuxCommandLine(socket, ["kill-session", "-t", exactSession(claim.tmux)])}) once you are sure it is this session's`, { tmuxSession: claim.tmux, socket });
  }
  if (existsSync(claim.worktree)) {
    throw refuse("worktree_present", `the worktree ${claim.worktree} exists`, "remove it yourself (git worktree remove) once its work is safe; quarantine never removes worktrees", { worktree: claim.worktree });
  }
  if (branchExists(store.root, claim.branch)) {
    throw refuse("branch_present", `the branch ${claim.branch} exists`, "delete it yourself (git branch -D) once its work is safe; quarantine never deletes branches", { branch: claim.branch });
  }
  let thread: QuarantineProof["thread"] = null;
  if (claim.thread) {
    const holders = liveThreadHolders(claim.thread);
    if (holders.length > 0) {
      throw refuse("thread_live", `the native thread ${claim.thread} is held by live process(es) ${holders.join(", ")}`, "end that agent first", { thread: claim.thread, pids: holders });
    }
    thread = { id: claim.thread, liveHolders: [] };
  }
  return {
    observedAt: new Date().toISOString(),
    leaf: { agentPidFile: pidFile !== undefined, pid: pidFile?.pid ?? null, state: pidFile ? "dead" : "none" },
    tmux: { socket, session: claim.tmux, present: false },
    worktree: { path: claim.worktree, present: false },
    branch: { name: claim.branch, present: false },
    adapter: { name: claim.adapter, known: true, ...adapter },
    thread,
    record: { kind: "corrupt", parseError: reading.error, bytes: recordBytes(reading.file) },
  };
}

export async function quarantineRecord(store: ProjectStore, id: string, claim: QuarantineClaim): Promise<QuarantineResult> {
  checkId(id);
  return withLock(
    recordLockPath(store, id),
    () => {
      const proof = prove(store, id, claim);
      const record = sessionPaths(store, id).record;
      const bundle = join(store.quarantineDir, id, stamp());
      mkdirSync(bundle, { recursive: true });
      writeFileSync(join(bundle, "claim.json"), JSON.stringify({ sessionId: id, claim, proof }, null, 2) + "\n");
      fsyncDir(bundle);
      try {
        // The listing index first (lib/record/listing.ts): no entry may speak for a record that has left its folder.
        dropListingEntries(store.dir, id);
        // The commit point: one rename inside SPEX_HOME keeps the bytes exactly.
        renameSync(record, join(bundle, "session.json"));
      } catch (e) {
        rmSync(bundle, { recursive: true, force: true });
        throw e;
      }
      fsyncDir(bundle);
      fsyncDir(sessionPaths(store, id).dir);
      return { id, bundle, bytes: proof.record.bytes, claim, proof };
    },
    { purpose: `quarantine ${id}` },
  );
}

export interface RestoreResult {
  id: string;
  bundle: string;
  bytes: number;
}

/** The newest bundle of this id that still holds a record. */
function latestBundle(store: ProjectStore, id: string): string | undefined {
  const dir = join(store.quarantineDir, id);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return undefined;
    throw e;
  }
  return names
    .sort()
    .reverse()
    .map((n) => join(dir, n))
    .find((b) => existsSync(join(b, "session.json")));
}

export async function restoreRecord(store: ProjectStore, id: string): Promise<RestoreResult> {
  checkId(id);
  return withLock(
    recordLockPath(store, id),
    () => {
      const paths = sessionPaths(store, id);
      if (readSession(store, id).kind !== "absent") {
        throw refuse("record_present", `session ${id} already has a record`, "a quarantined record comes back only while no record with its id exists", { file: paths.record });
      }
      const bundle = latestBundle(store, id);
      if (!bundle) {
        throw refuse("quarantine_empty", `nothing of session ${id} is in quarantine`, "list bundles under " + join(store.quarantineDir, id));
      }
      const source = join(bundle, "session.json");
      const bytes = readFileSync(source).length;
      mkdirSync(paths.dir, { recursive: true });
      renameSync(source, paths.record);
      fsyncDir(paths.dir);
      writeFileSync(join(bundle, "restored.json"), JSON.stringify({ restoredAt: new Date().toISOString(), to: paths.record }) + "\n");
      fsyncDir(bundle);
      return { id, bundle, bytes };
    },
    { purpose: `restore ${id}` },
  );
}
