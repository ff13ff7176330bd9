// `spex session new`, in-process (DESIGN.md §5 steps 1, 3–6). Every fact this
// machine can settle is resolved before the first git mutation (plan.ts);
// names are chosen free and the launch slot decided under the project lock; a
// receipt notes each thing once this create has made it, and a failure at any
// later step rolls back exactly those. Past sessions.maxActive the session is
// made and left `queued` for the launch queue (launch-queue.ts).
import { mkdirSync } from "node:fs";
import { writeStoreFile } from "../nofollow";
import { SpexError } from "../errors";
import { ensureExcluded, resolveCommit } from "../git";
import { requireGitSoon } from "../git/version";
import { type LaunchResult, launchSession } from "../launch/start";
import { copyLocalConfig, refuseUnsafeRender, renderWorktree } from "../launch/render";
import { freezeOriginal, launcherFile, markLauncher } from "../launch/fence";
import { startFolder } from "../launch/placement";
import { syncQueueMarker } from "../launch/queue-marker";
import { selfBin } from "../launch/self";
import { installPostCheckout } from "../hooks/post-checkout";
import { nodeOf, previewOfPrompt, titleOf } from "../naming";
import { type SessionRecord, emptyRecord, notePreview, publicRecord, readSession, refuseUnusable, writeRecordFile } from "../record";
import { parsePending } from "../record/codec";
import { withLock, withLocks } from "../lock";
import { type ProjectStore, projectLockPath, resourceLockPaths, sessionPaths } from "../store";
import { readAll, refuseUnusableName } from "../sessions";
import { addWatcher } from "../comms/watchers";
import { typeFirstCommand } from "../comms/first-command";
import { fileSessions, groupMembership } from "../coord/groups";
import { type CreateReceipt, afterRollBack, noteMade, recoverAbandonedCreates, retireReceipt, rollBack, writeReceipt } from "./receipt";
import { chooseFreeNames } from "./names";
import { makeBranch, makeWorktree, makeWorktreeRoot } from "./make";
import { faultPoint } from "../faults";
import { type CreatePlan, planCreate } from "./plan";
import { drainLaunchQueue, launchDecision, queuePositionOf } from "./launch-queue";
import type { CreateInput, CreateResult } from "./types";
import { budgetFile, hardMarker, resolveNewBudget, writeBudget } from "../attention/budget";
import { sha256Hex, randomId } from "../hash";
import { includeIntoWorktree } from "../workspace/include";
import { type IncludedFiles, includedPath, writeIncluded } from "../workspace/include-record";
import { join } from "node:path";

export type { CreateInput, CreateResult } from "./types";

/** A UUID-shaped id derived from the project and the idempotency key. */
export function sessionIdForKey(projectKey: string, key: string): string {
  const h = sha256Hex(`${projectKey}\0${key}`);
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

type HashedFields = "prompt" | "parent" | "launcher" | "name" | "base" | "group" | "directory" | "model" | "effort" | "sandbox";

/** The payload hash of a create; the optional fields join it only when set, so older hashes never change. */
export function createPayloadHash(i: Pick<CreateInput, HashedFields>): string {
  const payload: Record<string, string> = {
    prompt: i.prompt,
    parent: i.parent ?? "",
    launcher: i.launcher ?? "",
    name: i.name ?? "",
  };
  for (const k of ["base", "group", "directory", "model", "effort", "sandbox"] as const) if (i[k]) payload[k] = i[k]!;
  return sha256Hex(JSON.stringify(payload));
}

/** A keyed create whose record already exists: the same payload is answered, another is refused. */
function replayOf(store: ProjectStore, id: string, input: CreateInput, payloadHashes: string[]): CreateResult | undefined {
  const existing = readSession(store, id);
  if (existing.kind === "absent") return undefined;
  refuseUnusable(existing, { allowRetired: true });
  if (!payloadHashes.includes(existing.record.create_payload_hash)) {
    throw new SpexError("session_create_key_reused", `the idempotency key was already used for a different create (session ${id.slice(0, 8)})`, {
      hint: "use a new key for a new request",
      httpStatus: 409,
    });
  }
  return {
    record: publicRecord(existing.record, existing.pending),
    prompt: input.prompt,
    ready: !existing.pending,
    replayed: true,
    group: groupMembership(store).get(id) ?? "",
    queuePosition: queuePositionOf(store, id),
  };
}

function maxActiveReached(max: number): SpexError {
  return new SpexError("max_active_reached", `${max} sessions are already running in this project`, {
    hint: "stop or archive --stop one first, raise sessions.maxActive in spexcode.json, or drop --no-queue to wait for a slot",
  });
}

/** The record as the create publishes it: never launched (stopped), waiting in the queue or holding the slot it claimed. */
function newRecord(store: ProjectStore, id: string, input: CreateInput, plan: CreatePlan, names: { worktree: string; branch: string; tmuxSession: string }, slot: "launch" | "queue" | "none", payloadHash: string): SessionRecord {
  const record: SessionRecord = {
    ...emptyRecord(id, new Date().toISOString()),
    project_root: store.root,
    worktree_path: names.worktree,
    branch: names.branch,
    ...(plan.base ? { base: plan.base } : {}),
    node: nodeOf(input.prompt),
    title: titleOf(input.prompt),
    name: input.name ?? "",
    parent: plan.parent,
    status: slot === "queue" ? "queued" : "idle",
    stopped: true,
    harness: plan.adapter.name,
    harness_session_id: plan.adapter.assignNativeId?.() ?? "",
    launcher: plan.launcher.name,
    launch_cmd: plan.launcher.command,
    tmux_socket: plan.socket,
    tmux_session: names.tmuxSession,
    create_request_id: input.idempotencyKey ?? "",
    create_payload_hash: input.idempotencyKey ? payloadHash : "",
    ...(plan.directory ? { directory: plan.directory } : {}),
    ...(plan.spawn.model ? { model: plan.spawn.model } : {}),
    ...(plan.spawn.effort ? { effort: plan.spawn.effort } : {}),
    ...(plan.sandbox ? { sandbox: plan.sandbox } : {}),
  };
  // A slot claimed under the project lock is a launch under way from the first byte on: it counts as used.
  if (slot === "launch") record.launch_readiness_pending = freezeOriginal(record);
  return record;
}

export async function createSession(store: ProjectStore, input: CreateInput): Promise<CreateResult> {
  // A session an older git makes could be neither merged nor closed (lib/git/version): refused before
  // any change. The version is asked now and awaited below, so its spawn runs beside the checks' git calls.
  const gitChecked = requireGitSoon("spex session new");
  // A receipt that cannot be settled is reported, and stands in no other session's way.
  const { stuck } = await recoverAbandonedCreates(store);
  // A pin joins the hash as the commit it names, so a retry naming the same commit another way (the
  // full sha of the tag it first named) is the same request. A record hashed from the name as given
  // (before this) still replays. An unpinned create hashes exactly as it always did.
  const named = input.base ? createPayloadHash(input) : undefined;
  const resolved = input.base ? await resolveCommit(store.root, input.base) : undefined;
  const payloadHash = createPayloadHash({ ...input, base: resolved ?? input.base });
  const acceptedHashes = named && named !== payloadHash ? [payloadHash, named] : [payloadHash];
  const id = input.idempotencyKey ? sessionIdForKey(store.key, input.idempotencyKey) : randomId();

  if (input.idempotencyKey) {
    const replay = replayOf(store, id, input, acceptedHashes);
    if (replay) return replay;
  }

  // Everything this machine can settle, before any mutation.
  const plan = await planCreate(store, input);
  await gitChecked;
  // Settled with the rest, before any mutation: a budget config that cannot be read refuses here.
  const budget = resolveNewBudget(store, input.budget, plan.group);
  const paths = sessionPaths(store, id);

  let receipt: CreateReceipt | undefined;
  let record: SessionRecord | undefined;
  // Decided under the project lock (inside a closure, hence the widened type).
  let slot = "none" as "launch" | "queue" | "none";
  let launched: LaunchResult | undefined;
  let included: IncludedFiles | undefined;
  try {
    // The project lock orders creates (the launch slots) and makes "is this name free?" and "make it" one step.
    await withLock(
      projectLockPath(store),
      async () => {
        // Two processes creating with one key: the second finds the first's record here.
        if (input.idempotencyKey && readSession(store, id).kind !== "absent") return;
        refuseUnusableName(store, input.name ?? "", id);
        if (!input.noLaunch) {
          slot = launchDecision(readAll(store), plan.config);
          if (slot === "queue" && input.noQueue) throw maxActiveReached(plan.config.maxActive);
        }
        const mainRef = plan.mainBranch ? `refs/heads/${plan.mainBranch}` : "HEAD";
        const { names, mainCommit, hooksDir } = await chooseFreeNames(store.root, plan.naming, id, mainRef, input.noLaunch ? undefined : plan.socket);
        const start = plan.base ?? mainCommit ?? (await resolveCommit(store.root, "HEAD"));
        if (!start) {
          throw new SpexError("repo_empty", `${store.root} has no commit to fork from`, { hint: "make a first commit, then create sessions" });
        }
        record = newRecord(store, id, input, plan, names, slot, payloadHash);
        const made = record;
        // The branch/path locks keep a close of the same names out.
        await withLocks(resourceLockPaths(store, { branch: names.branch, worktree_path: names.worktree }), async () => {
          const madeDir = mkdirSync(paths.dir, { recursive: true });
          receipt = writeReceipt(store, { id, worktree: names.worktree, branch: names.branch, made: madeDir ? { sessionDir: paths.dir } : {} });
          faultPoint("receipt");
          ensureExcluded(plan.checkout.commonDir, "/.worktrees/");
          installPostCheckout(hooksDir, plan.checkout.commonDir, selfBin(store.home));
          makeWorktreeRoot(store.root, plan.config.worktreeRoot);
          await makeBranch(store, receipt, names.branch, start);
          faultPoint("branch");
          await makeWorktree(store, receipt, names);
          faultPoint("worktree");
          // A base that plants a link where spex is about to write is refused before the first write.
          refuseUnsafeRender(store.root, names.worktree, plan.adapter.name);
          // The start folder too: a tracked link on its way would carry the agent out of its worktree.
          startFolder(names.worktree, plan.directory);
          copyLocalConfig(store.root, names.worktree);
          await renderWorktree(names.worktree, plan.adapter.name, store.home);
          faultPoint("render");
          // The ignored files the project asks for (.env…), copied from the main checkout (lib/workspace).
          included = await includeIntoWorktree(store.root, names.worktree, plan.workspace, plan.config.worktreeRoot);
          if (included) {
            noteMade(store, receipt, { included: included.copied.map((c) => join(names.worktree, c.path)) }, true);
            writeIncluded(store, id, included);
          }
          writeStoreFile(paths.prompt, input.prompt);
          // Its preview in the listing index, so a listing need not open the prompt (lib/record/listing.ts).
          notePreview(store.dir, id, previewOfPrompt(input.prompt));
          // Before the record: a published session always has its budget, and a rollback takes it with the folder.
          if (budget) writeBudget(store, id, budget);
          faultPoint("budget");
          if (slot === "launch") markLauncher(store, id);
          if (slot === "queue") syncQueueMarker(store, 1);
          writeRecordFile(paths.record, made);
          if (!madeDir) noteMade(store, receipt, { files: [paths.prompt, paths.record, ...(budget ? [budgetFile(store, id), hardMarker(store, id)] : []), ...(slot === "launch" ? [launcherFile(store, id)] : []), ...(included ? [includedPath(store, id)] : [])] }, false);
          faultPoint("record");
        }, { purpose: `create ${id}` });
      },
      { purpose: `create ${id}` },
    );
    if (!record) return replayOf(store, id, input, acceptedHashes)!;
    // Published: the record is now the durable fence; the receipt is best-effort retired.
    retireReceipt(store, id);
    faultPoint("published");
    // A child is watched by its parent (source "parent").
    if (plan.parent) await addWatcher(store, id, plan.parent, "parent");
    // Filed before the agent starts, so what it runs finds itself in its group.
    if (plan.group !== "") await fileSessions(store, plan.group, [id]);
    if (slot === "launch") {
      launched = await launchSession(store, id, { claimed: true, onStarted: (tmux) => noteMade(store, receipt!, { tmux }, false), onWaiting: input.onWaiting });
      faultPoint("launched");
    }
  } catch (error) {
    // Only what this process made (its receipt names it) is rolled back.
    if (!receipt) throw error;
    // The session stands once its setup ran and failed: resume runs the setup again (lib/workspace).
    if (error instanceof SpexError && error.code === "setup_failed") throw error;
    const stuck = await rollBack(store, receipt).then(
      () => undefined,
      (e: unknown) => (e instanceof SpexError ? e : new SpexError("receipt_stuck", String(e))),
    );
    throw afterRollBack(error, stuck);
  }
  const answer = { prompt: input.prompt, replayed: false, group: plan.group, stuck, ...(included ? { included } : {}) };
  if (!launched) {
    // A slot may have freed since the decision: the queue (this session perhaps) gets it now.
    if (slot === "queue") stuck.push(...(await drainLaunchQueue(store)).failed);
    const now = readSession(store, id);
    const view = now.kind === "ok" ? publicRecord(now.record, now.pending) : record!;
    return { ...answer, record: view, ready: false, queuePosition: queuePositionOf(store, id) };
  }
  // The session stands from here on: a first command that cannot be handed over is reported by message-status, not rolled back.
  await typeFirstCommand(store, id, launched);
  const view = publicRecord(launched.record, parsePending(launched.record.launch_readiness_pending));
  return { ...answer, record: view, ready: launched.ready, queuePosition: null };
}
