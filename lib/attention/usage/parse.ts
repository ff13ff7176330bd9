// Reading token counts out of each harness's own transcript lines (pure).
// Every parser takes one complete JSONL line and the source's running state,
// and adds what the line reports to the state's day/model buckets.
//
// - Claude Code (project JSONL): an assistant line carries message.usage and
//   message.model; it writes one line per content block of a message, each
//   with the same message id and usage, so a message counts once (the last
//   line seen for an id replaces what an earlier one added).
// - Codex (rollout JSONL): event_msg token_count lines carry the thread's
//   cumulative total_token_usage; what a line adds is its total minus the
//   previous one, charged to the model of the latest turn_context line.
//   Cached and cache-write tokens are parts of input_tokens; output_tokens
//   includes reasoning.
// - Gemini CLI (chats/session-*.jsonl): a "gemini" message carries tokens
//   (input includes cached; thoughts and tool-use prompt tokens are billed as
//   output and input) and its model; an updated message is appended again
//   whole under the same id.
import { type Buckets, type Tokens, ZERO, bucketAdd, count, dayOf } from "./tokens";

/** A message counted recently: what it added, so a later line of the same id replaces it. */
export interface Counted {
  id: string;
  day: string;
  model: string;
  tokens: Tokens;
}

export interface SourceState {
  buckets: Buckets;
  /** The last few messages counted (dedupe window), newest last. */
  recent: Counted[];
  /** Codex: the running model and the cumulative total the last token_count line reported. */
  model?: string;
  total?: Tokens;
}

export type Harness = "claude" | "codex" | "gemini";

// A CLI repeats a message only while it is one of the last few written.
const RECENT = 8;

export function emptySource(): SourceState {
  return { buckets: {}, recent: [] };
}

/** Count a message once per id: a repeat of a recent id takes back what it added before. */
function countMessage(state: SourceState, entry: Counted): void {
  const i = state.recent.findIndex((c) => c.id === entry.id);
  if (i >= 0) {
    const prev = state.recent[i]!;
    bucketAdd(state.buckets, prev.day, prev.model, prev.tokens, -1);
    state.recent.splice(i, 1);
  }
  bucketAdd(state.buckets, entry.day, entry.model, entry.tokens);
  state.recent.push(entry);
  if (state.recent.length > RECENT) state.recent.shift();
}

function parseJson(line: string): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(line);
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined; // a torn line: skipped
  }
}

function obj(v: unknown): Record<string, unknown> {
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

const UNKNOWN_MODEL = "unknown";

function claudeLine(line: string, state: SourceState, today: string): void {
  if (!line.includes('"usage"')) return;
  const d = parseJson(line);
  if (!d || d.type !== "assistant") return;
  const m = obj(d.message);
  const u = obj(m.usage);
  if (Object.keys(u).length === 0) return;
  const tokens: Tokens = {
    input: count(u.input_tokens),
    output: count(u.output_tokens),
    cacheRead: count(u.cache_read_input_tokens),
    cacheWrite: count(u.cache_creation_input_tokens),
  };
  const id = typeof m.id === "string" && m.id ? m.id : typeof d.uuid === "string" ? d.uuid : "";
  const model = typeof m.model === "string" && m.model ? m.model : UNKNOWN_MODEL;
  countMessage(state, { id, day: dayOf(d.timestamp, today), model, tokens });
}

function codexTokens(u: Record<string, unknown>): Tokens {
  const input = count(u.input_tokens);
  const cacheRead = count(u.cached_input_tokens);
  const cacheWrite = count(u.cache_write_input_tokens);
  return { input: Math.max(0, input - cacheRead - cacheWrite), output: count(u.output_tokens), cacheRead, cacheWrite };
}

function codexLine(line: string, state: SourceState, today: string): void {
  const isContext = line.includes('"turn_context"');
  const isCount = line.includes('"token_count"');
  if (!isContext && !isCount) return;
  const d = parseJson(line);
  if (!d) return;
  const p = obj(d.payload);
  if (d.type === "turn_context") {
    if (typeof p.model === "string" && p.model) state.model = p.model;
    return;
  }
  if (d.type !== "event_msg" || p.type !== "token_count") return;
  const info = obj(p.info);
  if (Object.keys(obj(info.total_token_usage)).length === 0) return; // a rate-limit update without counts
  const total = codexTokens(obj(info.total_token_usage));
  const prev = state.total ?? ZERO;
  // A total below the last one is a new count (a resumed thread that starts again): all of it is new.
  const fell = total.input < prev.input || total.output < prev.output || total.cacheRead < prev.cacheRead || total.cacheWrite < prev.cacheWrite;
  const delta: Tokens = fell
    ? total
    : { input: total.input - prev.input, output: total.output - prev.output, cacheRead: total.cacheRead - prev.cacheRead, cacheWrite: total.cacheWrite - prev.cacheWrite };
  state.total = total;
  bucketAdd(state.buckets, dayOf(d.timestamp, today), state.model ?? UNKNOWN_MODEL, delta);
}

function geminiLine(line: string, state: SourceState, today: string): void {
  if (!line.includes('"tokens"')) return;
  const d = parseJson(line);
  if (!d || d.type !== "gemini" || typeof d.id !== "string") return;
  const t = obj(d.tokens);
  if (Object.keys(t).length === 0) return;
  const cached = count(t.cached);
  const tokens: Tokens = {
    input: Math.max(0, count(t.input) - cached) + count(t.tool),
    output: count(t.output) + count(t.thoughts),
    cacheRead: cached,
    cacheWrite: 0,
  };
  const model = typeof d.model === "string" && d.model ? d.model : UNKNOWN_MODEL;
  countMessage(state, { id: d.id, day: dayOf(d.timestamp, today), model, tokens });
}

const PARSERS: Record<Harness, (line: string, state: SourceState, today: string) => void> = {
  claude: claudeLine,
  codex: codexLine,
  gemini: geminiLine,
};

/** Add every complete line of `text` to the state. `today` dates a line without a timestamp. */
export function parseLines(harness: Harness, text: string, state: SourceState, today = new Date().toISOString().slice(0, 10)): void {
  const parse = PARSERS[harness];
  let start = 0;
  for (;;) {
    const nl = text.indexOf("\n", start);
    if (nl < 0) break;
    if (nl > start) parse(text.slice(start, nl), state, today);
    start = nl + 1;
  }
}
