// `spex session new`, in-process (DESIGN.md §5 steps 1, 3–6). Every fact this
// machine can settle is resolved before the first git mutation; names are
// chosen free under the project lock; a receipt notes each thing once this
// create has made it, and a failure at any later step rolls back exactly those.
import { mkdirSync } from "node:fs";
import { writeStoreFile } from "../nofollow";
import { createHash, randomUUID } from "node:crypto";
import { loadConfig } from "../config";
import { SpexError } from "../errors";
import { findCheckout } from "../git/main-root";
import { detectMainBranch, ensureExcluded, resolveCommit } from "../git";
import { harnessAdapter } from "../harness";
import { type LaunchResult, launchSession } from "../launch/start";
import { promptIsTyped } from "../launch/shell";
import { refusePromptTooLarge } from "../launch/argv-limit";
import { resolveLauncher, whichSync } from "../launch/launcher";
import { copyLocalConfig, refuseUnsafeRender, renderWorktree } from "../launch/render";
import { selfBin } from "../launch/self";
import { installPostCheckout } from "../hooks/post-checkout";
import { nodeOf, slugOf, titleOf } from "../naming";
import { type SessionRecord, emptyRecord, publicRecord, readSession, refuseUnusable, writeRecordFile } from "../record";
import { parsePending } from "../record/codec";
import { withLock, withLocks } from "../lock";
import { type ProjectStore, projectLockPath, resourceLockPaths, sessionPaths } from "../store";
import { listRows, refuseUnusableName, resolveSelector } from "../sessions";
import { spexSocket } from "../tmux";
import { addWatcher } from "../comms/watchers";
import { typeFirstCommand } from "../comms/first-command";
import { refuseTooLarge } from "../comms/queue";
import { type CreateReceipt, afterRollBack, noteMade, recoverAbandonedCreates, retireReceipt, rollBack, writeReceipt } from "./receipt";
import { chooseFreeNames } from "./names";
import { makeWorktree, makeWorktreeRoot } from "./make";

export interface CreateInput {
  prompt: string;
  launcher?: string;
  name?: string;
  /** A commit-ish to fork from; absent forks from the main branch as it is now. */
  base?: string;
  /** Selector of the parent session. */
  parent?: string;
  noLaunch?: boolean;
  /** From the backend: the session id derives from it and replays are answered, not repeated. */
  idempotencyKey?: string;
  cwd?: string;
}

export interface CreateResult {
  record: SessionRecord;
  prompt: string;
  ready: boolean;
  /** A keyed replay answered with the existing record. */
  replayed: boolean;
  /** Create receipts (of other creates) that could not be settled: warnings, `receipt_stuck`. */
  stuck?: SpexError[];
}

/** Test hook: SIGKILL ourselves at a named step (DESIGN.md §10 fault injection). */
function crashpoint(step: string): void {
  if (process.env.SPEX_TEST_CRASH_AT === step) process.kill(process.pid, "SIGKILL");
}

/** A UUID-shaped id derived from the project and the idempotency key. */
export function sessionIdForKey(projectKey: string, key: string): string {
  const h = createHash("sha256").update(`${projectKey}\0${key}`).digest("hex");
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The payload hash of a create; `base` joins it only when pinned, so unpinned hashes never change. */
export function createPayloadHash(i: Pick<CreateInput, "prompt" | "parent" | "launcher" | "name" | "base">): string {
  const payload: Record<string, string> = {
    prompt: i.prompt,
    parent: i.parent ?? "",
    launcher: i.launcher ?? "",
    name: i.name ?? "",
  };
  if (i.base) payload.base = i.base;
  return createHash("sha256").update(JSON.stringify(payload)).digest("hex");
}

function countActive(store: ProjectStore): number {
  return listRows(store).filter(
    (r) => r.kind === "ok" && !r.archived && !r.retired && (r.liveness === "online" || r.display === "starting"),
  ).length;
}

/** A keyed create whose record already exists: the same payload is answered, another is refused. */
function replayOf(store: ProjectStore, id: string, input: CreateInput, payloadHash: string): CreateResult | undefined {
  const existing = readSession(store, id);
  if (existing.kind === "absent") return undefined;
  refuseUnusable(existing, { allowRetired: true });
  if (existing.record.create_payload_hash !== payloadHash) {
    throw new SpexError("session_create_key_reused", `the idempotency key was already used for a different create (session ${id.slice(0, 8)})`, {
      hint: "use a new key for a new request",
      httpStatus: 409,
    });
  }
  return { record: publicRecord(existing.record, existing.pending), prompt: input.prompt, ready: !existing.pending, replayed: true };
}

export async function createSession(store: ProjectStore, input: CreateInput): Promise<CreateResult> {
  // A receipt that cannot be settled is reported, and stands in no other session's way.
  const { stuck } = await recoverAbandonedCreates(store);
  const payloadHash = createPayloadHash(input);
  const id = input.idempotencyKey ? sessionIdForKey(store.key, input.idempotencyKey) : randomUUID();

  if (input.idempotencyKey) {
    const replay = replayOf(store, id, input, payloadHash);
    if (replay) return replay;
  }

  // Everything this machine can settle, before any mutation.
  const config = loadConfig(store.root);
  const launcher = resolveLauncher(config, input.launcher);
  const adapter = harnessAdapter(launcher.harness);
  // A prompt typed into a shell is a message: the message limits apply. Any
  // other is one argv operand, even for --no-launch (the first launch passes it).
  if (promptIsTyped(launcher.harness, launcher.command)) refuseTooLarge(input.prompt);
  else refusePromptTooLarge(input.prompt, [launcher.command, ...adapter.launchArgs({ nativeId: "" })]);
  let base: string | undefined;
  if (input.base !== undefined && input.base !== "") {
    base = await resolveCommit(store.root, input.base);
    if (!base) {
      throw new SpexError("base_unresolvable", `"${input.base}" names no commit in ${store.root}`, {
        hint: "pass a branch, tag or commit that `git rev-parse` can resolve in the main checkout",
        httpStatus: 400,
      });
    }
  }
  if (!input.noLaunch && !whichSync("tmux")) {
    throw new SpexError("tmux_missing", "tmux is not installed (or not on PATH); spex runs every session in tmux", {
      hint: "install it (e.g. `apt-get install tmux`, `brew install tmux`), or create with --no-launch",
    });
  }
  const mainBranch = await detectMainBranch(store.root, config.mainBranch);
  const parent = input.parent ? resolveSelector(store, input.parent, input.cwd).id : "";
  const naming = { worktreeRoot: config.worktreeRoot, branchPrefix: config.branchPrefix, slug: slugOf(input.prompt) };
  const checkout = findCheckout(store.root);
  if (!checkout) throw new SpexError("not_a_git_repo", `${store.root} is not a git checkout`, { hint: "run spex inside a repository" });
  const socket = spexSocket(config.tmuxSocket);
  const paths = sessionPaths(store, id);

  let receipt: CreateReceipt | undefined;
  let record: SessionRecord | undefined;
  let launched: LaunchResult;
  try {
    // The project lock orders creates (max-active) and makes "is this name free?" and "make it" one step.
    await withLock(
      projectLockPath(store),
      async () => {
        // Two processes creating with one key: the second finds the first's record here.
        if (input.idempotencyKey && readSession(store, id).kind !== "absent") return;
        refuseUnusableName(store, input.name ?? "", id);
        if (!input.noLaunch && countActive(store) >= config.maxActive) {
          throw new SpexError("max_active_reached", `${config.maxActive} sessions are already running in this project`, {
            hint: "stop or archive one first, raise sessions.maxActive in spexcode.json, or create with --no-launch",
          });
        }
        const mainRef = `refs/heads/${mainBranch}`;
        const { names, mainCommit } = await chooseFreeNames(store.root, naming, id, mainRef, input.noLaunch ? undefined : socket);
        const start = base ?? mainCommit ?? (await resolveCommit(store.root, "HEAD"));
        if (!start) {
          throw new SpexError("repo_empty", `${store.root} has no commit to fork from`, { hint: "make a first commit, then create sessions" });
        }
        record = {
          ...emptyRecord(id, new Date().toISOString()),
          project_root: store.root,
          worktree_path: names.worktree,
          branch: names.branch,
          ...(base ? { base } : {}),
          node: nodeOf(input.prompt),
          title: titleOf(input.prompt),
          name: input.name ?? "",
          parent,
          status: "idle",
          stopped: true,
          harness: adapter.name,
          harness_session_id: adapter.assignNativeId?.() ?? "",
          launcher: launcher.name,
          launch_cmd: launcher.command,
          tmux_socket: socket,
          tmux_session: names.tmuxSession,
          create_request_id: input.idempotencyKey ?? "",
          create_payload_hash: input.idempotencyKey ? payloadHash : "",
        };
        const made = record;
        // The branch/path locks keep a close of the same names out.
        await withLocks(resourceLockPaths(store, { branch: names.branch, worktree_path: names.worktree }), async () => {
          const madeDir = mkdirSync(paths.dir, { recursive: true });
          receipt = writeReceipt(store, { id, worktree: names.worktree, branch: names.branch, made: madeDir ? { sessionDir: paths.dir } : {} });
          crashpoint("receipt");
          ensureExcluded(checkout.commonDir, "/.worktrees/");
          installPostCheckout(checkout.commonDir, store.root, selfBin(store.home));
          makeWorktreeRoot(store.root, config.worktreeRoot);
          await makeWorktree(store, receipt, names, start);
          crashpoint("worktree");
          // A base that plants a link where spex is about to write is refused before the first write.
          refuseUnsafeRender(store.root, names.worktree, adapter.name);
          copyLocalConfig(store.root, names.worktree);
          await renderWorktree(names.worktree, adapter.name, store.home);
          crashpoint("render");
          writeStoreFile(paths.prompt, input.prompt);
          writeRecordFile(paths.record, made);
          if (!madeDir) noteMade(store, receipt, { files: [paths.prompt, paths.record] }, false);
          crashpoint("record");
        }, { purpose: `create ${id}` });
      },
      { purpose: `create ${id}` },
    );
    if (!record) return replayOf(store, id, input, payloadHash)!;
    // Published: the record is now the durable fence; the receipt is best-effort retired.
    retireReceipt(store, id);
    crashpoint("published");
    // A child is watched by its parent (source "parent").
    if (parent) await addWatcher(store, id, parent, "parent");
    if (input.noLaunch) return { record, prompt: input.prompt, ready: false, replayed: false, stuck };
    launched = await launchSession(store, id, { onStarted: (tmux) => noteMade(store, receipt!, { tmux }, false) });
    crashpoint("launched");
  } catch (error) {
    // Only what this process made (its receipt names it) is rolled back.
    if (!receipt) throw error;
    const stuck = await rollBack(store, receipt).then(
      () => undefined,
      (e: unknown) => (e instanceof SpexError ? e : new SpexError("receipt_stuck", String(e))),
    );
    throw afterRollBack(error, stuck);
  }
  // The session stands from here on: a first command that cannot be handed over is reported by message-status, not rolled back.
  await typeFirstCommand(store, id, launched);
  const view = publicRecord(launched.record, parsePending(launched.record.launch_readiness_pending));
  return { record: view, prompt: input.prompt, ready: launched.ready, replayed: false, stuck };
}
