// Review routes (docs/review.md): a session's diff and its merge, and what a
// close would throw away, all behind the token like every route that shows
// or changes session content.
import { SpexError } from "../errors";
import { readSession, refuseUnusable } from "../record";
import { type MergeStrategy, diffSession, dispatchMerge, mergeSession } from "../review";
import { gatherCloseFacts, planClose } from "../teardown";
import { booleanField, httpError, readJsonObject, refuseUnknown, stringFields } from "./http";
import { type Reply, type Route, type RouteContext, ok, pathParam, sessionFromSelector } from "./route";

const ID = "([^/]+)";
const sessionId = (ctx: RouteContext): string => sessionFromSelector(ctx, pathParam(ctx), "the path").id;

/** A patch larger than this is cut (at a line end) and marked `truncated`: the page shows text, not a 100 MB blob. */
export const MAX_PATCH_BYTES = 2 * 1024 * 1024;

const STRATEGIES: readonly MergeStrategy[] = ["merge", "squash", "ff-only", "rebase"];

function flag(ctx: RouteContext, name: string): boolean {
  const v = ctx.url.searchParams.get(name);
  if (v === null || v === "0" || v === "false") return false;
  if (v === "" || v === "1" || v === "true") return true;
  throw httpError("query_invalid", `"${name}" must be 1 or 0`, 400);
}

async function diff(ctx: RouteContext): Promise<Reply> {
  const id = sessionId(ctx);
  return ok(await diffSession(ctx.store, id, { worktree: flag(ctx, "worktree"), stat: flag(ctx, "stat"), maxPatchBytes: MAX_PATCH_BYTES }));
}

async function merge(ctx: RouteContext): Promise<Reply> {
  const body = await readJsonObject(ctx.req);
  refuseUnknown(body, ["strategy", "message", "close", "includeUncommitted"]);
  const { strategy, message } = stringFields({ strategy: body.strategy, message: body.message }, ["strategy", "message"]);
  if (strategy !== undefined && !STRATEGIES.includes(strategy as MergeStrategy)) {
    throw httpError("field_invalid", `"strategy" must be one of ${STRATEGIES.join(", ")}`, 400);
  }
  const id = sessionId(ctx);
  return ok(await mergeSession(ctx.store, id, {
    strategy: (strategy as MergeStrategy | undefined) ?? "merge",
    message: message || undefined,
    close: booleanField(body, "close"),
    includeUncommitted: booleanField(body, "includeUncommitted"),
  }));
}

/** Hand the landing to the session's agent (after a merge_conflict or merge_raced): `merge --by-agent`, sent as the person at the dashboard. */
async function mergeByAgent(ctx: RouteContext): Promise<Reply> {
  const body = await readJsonObject(ctx.req);
  refuseUnknown(body, ["into", "rebase"]);
  const { into } = stringFields({ into: body.into }, ["into"]);
  const id = sessionId(ctx);
  return ok(await dispatchMerge(ctx.store, id, { into: into || undefined, rebase: booleanField(body, "rebase"), from: { kind: "user" } }));
}

const refusalOf = (e: unknown) => {
  if (!(e instanceof SpexError)) throw e;
  const { code, message, hint } = e.toJSON().error as { code: string; message: string; hint: string };
  return { code, message, hint };
};

/**
 * What `close` would do now, changing nothing: the work a forced close throws
 * away (uncommitted files, commits not on the main branch), the refusal a
 * plain close meets (`refusal`), and one even a forced close meets (`blocked`).
 * The page asks before it forces, naming what goes.
 */
function closePlan(ctx: RouteContext): Reply {
  const id = sessionId(ctx);
  const reading = readSession(ctx.store, id);
  if (reading.kind === "corrupt") return ok({ id, blocked: { code: "record_corrupt", message: "the record is corrupt: close refuses it", hint: "quarantine it (seed 001's recovery), then restore or leave it" } });
  refuseUnusable(reading, { allowRetired: true });
  const facts = gatherCloseFacts(ctx.store, reading.record, reading.retired);
  let refusal = null;
  try {
    planClose(id, facts, false);
  } catch (e) {
    refusal = refusalOf(e);
  }
  try {
    const plan = planClose(id, facts, true);
    return ok({ id, worktree: plan.worktree, branch: plan.branch, discards: plan.discards, refusal });
  } catch (e) {
    return ok({ id, refusal, blocked: refusalOf(e) });
  }
}

export const REVIEW_ROUTES: Route[] = [
  { method: "GET", pattern: new RegExp(`^/api/sessions/${ID}/close-plan$`), handle: closePlan },
  { method: "GET", pattern: new RegExp(`^/api/sessions/${ID}/diff$`), handle: diff },
  { method: "POST", pattern: new RegExp(`^/api/sessions/${ID}/merge$`), handle: merge },
  { method: "POST", pattern: new RegExp(`^/api/sessions/${ID}/merge-by-agent$`), handle: mergeByAgent },
];
