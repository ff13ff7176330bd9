// `spex session new`, in-process (DESIGN.md §5 steps 1, 3–6). Every fact this
// machine can settle is resolved before the first git mutation; a receipt is
// written before that mutation; a failure at any later step rolls back all of it.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { createHash, randomUUID } from "node:crypto";
import { loadConfig } from "../config";
import { SpexError } from "../errors";
import { findCheckout } from "../git/main-root";
import { addWorktree, branchExists, detectMainBranch, ensureExcluded, resolveCommit, resolveRefs } from "../git";
import { harnessAdapter } from "../harness";
import { launchSession } from "../launch/start";
import { resolveLauncher, whichSync } from "../launch/launcher";
import { copyLocalConfig, renderWorktree } from "../launch/render";
import { selfBin } from "../launch/self";
import { installPostCheckout } from "../hooks/post-checkout";
import { nodeOf, shortId, slugOf, titleOf } from "../naming";
import { type SessionRecord, emptyRecord, publicRecord, readSession, refuseUnusable, writeRecordFile } from "../record";
import { parsePending } from "../record/codec";
import { withLocks } from "../lock";
import { type ProjectStore, projectLockPath, resourceLockPaths, sessionPaths } from "../store";
import { listRows, resolveSelector } from "../sessions";
import { spexSocket } from "../tmux";
import { addWatcher } from "../comms/watchers";
import { type CreateReceipt, recoverAbandonedCreates, retireReceipt, rollBack, writeReceipt } from "./receipt";

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
  await recoverAbandonedCreates(store);
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
  const slug = slugOf(input.prompt);
  const namesFor = (suffix: string) => ({
    worktree: join(config.worktreeRoot, `${slug}-${suffix}`),
    branch: `${config.branchPrefix}${slug}-${suffix}`,
  });
  let { worktree, branch } = namesFor(shortId(id));
  // One git call settles both the fork point and whether the branch name is free.
  const mainRef = `refs/heads/${mainBranch}`;
  const refs = await resolveRefs(store.root, [mainRef, `refs/heads/${branch}`]);
  const start = base ?? refs.get(mainRef) ?? (await resolveCommit(store.root, "HEAD"));
  if (!start) {
    throw new SpexError("repo_empty", `${store.root} has no commit to fork from`, { hint: "make a first commit, then create sessions" });
  }
  if (existsSync(worktree) || refs.has(`refs/heads/${branch}`)) {
    ({ worktree, branch } = namesFor(shortId(id, 12)));
    if (existsSync(worktree) || (await branchExists(store.root, branch))) {
      throw new SpexError("name_collision", `both ${worktree} and ${branch} are taken`, { hint: "close the session that holds them, or retry" });
    }
  }
  const checkout = findCheckout(store.root);
  if (!checkout) throw new SpexError("not_a_git_repo", `${store.root} is not a git checkout`, { hint: "run spex inside a repository" });
  const now = new Date().toISOString();
  const record: SessionRecord = {
    ...emptyRecord(id, now),
    project_root: store.root,
    worktree_path: worktree,
    branch,
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
    tmux_socket: spexSocket(config.tmuxSocket),
    tmux_session: basename(worktree),
    create_request_id: input.idempotencyKey ?? "",
    create_payload_hash: input.idempotencyKey ? payloadHash : "",
  };
  const paths = sessionPaths(store, id);

  let receipt: CreateReceipt | undefined;
  let raced = false;
  try {
    // The project lock orders creates (max-active); the branch/path locks keep a close of the same names out.
    await withLocks(
      [projectLockPath(store), ...resourceLockPaths(store, { branch, worktree_path: worktree })],
      async () => {
        // Two processes creating with one key: the second finds the first's record here.
        if (input.idempotencyKey && readSession(store, id).kind !== "absent") {
          raced = true;
          return;
        }
        if (!input.noLaunch && countActive(store) >= config.maxActive) {
          throw new SpexError("max_active_reached", `${config.maxActive} sessions are already running in this project`, {
            hint: "stop or archive one first, raise sessions.maxActive in spexcode.json, or create with --no-launch",
          });
        }
        receipt = writeReceipt(store, { id, worktree, branch, tmuxSocket: record.tmux_socket, tmuxSession: record.tmux_session });
        crashpoint("receipt");
        ensureExcluded(checkout.commonDir, "/.worktrees/");
        installPostCheckout(checkout.commonDir, store.root, selfBin(store.home));
        mkdirSync(config.worktreeRoot, { recursive: true });
        // The child-only defer marker: post-checkout must not render before the local config is copied.
        await addWorktree(store.root, worktree, branch, start, { SPEX_DEFER_RENDER: "1" });
        crashpoint("worktree");
        copyLocalConfig(store.root, worktree);
        await renderWorktree(worktree, adapter.name, store.home);
        crashpoint("render");
        mkdirSync(paths.dir, { recursive: true });
        writeFileSync(paths.prompt, input.prompt);
        writeRecordFile(paths.record, record);
        crashpoint("record");
      },
      { purpose: `create ${id}` },
    );
    if (raced) return replayOf(store, id, input, payloadHash)!;
    // Published: the record is now the durable fence; the receipt is best-effort retired.
    retireReceipt(store, id);
    crashpoint("published");
    // A child is watched by its parent (source "parent").
    if (parent) await addWatcher(store, id, parent, "parent");
    if (input.noLaunch) return { record, prompt: input.prompt, ready: false, replayed: false };
    const launched = await launchSession(store, id, {});
    crashpoint("launched");
    const view = publicRecord(launched.record, parsePending(launched.record.launch_readiness_pending));
    return { record: view, prompt: input.prompt, ready: launched.ready, replayed: false };
  } catch (error) {
    // Only what this process made (its receipt names it) is rolled back.
    if (receipt) await rollBack(store, receipt).catch(() => undefined);
    throw error;
  }
}
