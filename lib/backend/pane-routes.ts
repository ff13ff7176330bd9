// The live pane routes (docs/backend.md): a stream of screen frames, the
// scrollback, the writer claim, the writer's size, and typed keys or a paste,
// all behind the token. Typed text reaches tmux only as key names and literal
// runs (lib/tmux/keys.ts), a paste only through the one paste path (lib/tmux
// pasteText).
import { SpexError } from "../errors";
import { sessionPane, tmuxAsync } from "../tmux";
import { historyArgs, parseHistoryAnswer } from "./pane-frame";
import { terminalKeys } from "../tmux/keys";
import { booleanField, httpError, readJsonObject, refuseUnknown, stringFields } from "./http";
import { PANE_COLS, PANE_ROWS, panesOf } from "./panes";
import { type Reply, type Route, type RouteContext, ok, pathParam, sessionFromSelector } from "./route";

const ID = "([^/]+)";

/** Typed input per request: more than a burst of typing is a paste, and goes as one. */
const MAX_TYPED_CHARS = 4096;
const MAX_PASTE_BYTES = 256 * 1024;

function running(ctx: RouteContext) {
  const reading = sessionFromSelector(ctx, pathParam(ctx), "the path");
  const notRunning = (why: string) =>
    new SpexError("session_not_running", `session ${reading.id.slice(0, 8)} ${why}: there is no pane to show`, { hint: "resume it first", httpStatus: 409 });
  if (reading.kind !== "ok") throw notRunning(`is ${reading.kind}`);
  const r = reading.record;
  if (r.status === "queued") {
    throw new SpexError("session_queued", `session ${reading.id.slice(0, 8)} is queued: its agent starts when a slot frees, and its pane with it`, {
      hint: "wait for a slot (stop or close another session), or raise sessions.maxActive",
      httpStatus: 409,
    });
  }
  if (r.stopped || !r.tmux_session) throw notRunning("is stopped");
  const pane = sessionPane(r.tmux_socket, r.tmux_session);
  if (!pane || pane.dead) throw notRunning("has no live tmux pane");
  return { sessionId: reading.id, socket: r.tmux_socket, paneId: pane.id };
}

function viewerOf(body: Record<string, unknown>): string {
  const v = body.viewer;
  if (typeof v !== "string" || !/^[0-9a-f]{24}$/.test(v)) throw httpError("field_invalid", '"viewer" must be the id the pane stream gave', 400);
  return v;
}

function watch(ctx: RouteContext): undefined {
  panesOf(ctx.hub).watch(running(ctx), ctx.req, ctx.res);
  return undefined;
}

async function claim(ctx: RouteContext): Promise<Reply> {
  const body = await readJsonObject(ctx.req);
  refuseUnknown(body, ["viewer", "take"]);
  const id = sessionFromSelector(ctx, pathParam(ctx), "the path").id;
  return ok(panesOf(ctx.hub).claim(id, viewerOf(body), booleanField(body, "take")));
}

async function keys(ctx: RouteContext): Promise<Reply> {
  const body = await readJsonObject(ctx.req);
  refuseUnknown(body, ["viewer", "data", "paste"]);
  const { data, paste } = stringFields({ data: body.data, paste: body.paste }, ["data", "paste"]);
  if (!data && !paste) throw httpError("field_required", 'send "data" (typed keys) or "paste" (text)', 400);
  if (data && data.length > MAX_TYPED_CHARS) throw httpError("field_invalid", `"data" takes at most ${MAX_TYPED_CHARS} characters of typing; send more as "paste"`, 400);
  if (paste && Buffer.byteLength(paste) > MAX_PASTE_BYTES) throw httpError("message_too_large", `a paste takes at most ${MAX_PASTE_BYTES} bytes`, 413);
  const id = sessionFromSelector(ctx, pathParam(ctx), "the path").id;
  return ok(await panesOf(ctx.hub).type(id, viewerOf(body), { steps: data ? terminalKeys(data) : [], paste }));
}

function whole(body: Record<string, unknown>, name: string, range: { min: number; max: number }): number {
  const v = body[name];
  if (typeof v !== "number" || !Number.isInteger(v) || v < range.min || v > range.max) {
    throw httpError("field_invalid", `"${name}" must be a whole number from ${range.min} to ${range.max}`, 400);
  }
  return v;
}

async function size(ctx: RouteContext): Promise<Reply> {
  const body = await readJsonObject(ctx.req);
  refuseUnknown(body, ["viewer", "cols", "rows"]);
  const id = sessionFromSelector(ctx, pathParam(ctx), "the path").id;
  return ok(await panesOf(ctx.hub).size(id, viewerOf(body), whole(body, "cols", PANE_COLS), whole(body, "rows", PANE_ROWS)));
}

/** The pane's scrollback above its screen, coloured, as display text (the page loads it when someone scrolls up). */
async function history(ctx: RouteContext): Promise<Reply> {
  const target = running(ctx);
  const r = await tmuxAsync(target.socket, historyArgs(target.paneId));
  const answer = r.code === 0 ? parseHistoryAnswer(r.stdout) : undefined;
  if (!answer) throw new SpexError("session_not_running", "the pane went away while its scrollback was read", { hint: "resume it first", httpStatus: 409 });
  return ok(answer);
}

export const PANE_ROUTES: Route[] = [
  { method: "GET", pattern: new RegExp(`^/api/sessions/${ID}/pane$`), handle: watch },
  { method: "POST", pattern: new RegExp(`^/api/sessions/${ID}/pane/writer$`), handle: claim },
  { method: "POST", pattern: new RegExp(`^/api/sessions/${ID}/pane/keys$`), handle: keys },
  { method: "POST", pattern: new RegExp(`^/api/sessions/${ID}/pane/size$`), handle: size },
  { method: "GET", pattern: new RegExp(`^/api/sessions/${ID}/pane/history$`), handle: history },
];
