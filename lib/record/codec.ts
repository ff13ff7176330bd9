// Text ⇄ record. serializeRecord is the only place record text is composed;
// parseRecord is the one public-record parser every reader goes through.
import {
  BOOLEAN_FIELDS,
  FIELD_ORDER,
  OPTIONAL_FIELDS,
  type PendingOriginal,
  type SessionRecord,
  isAfterTurn,
  isDeclaration,
  isLifecycle,
  isProposal,
} from "./schema";

/** One top-level field per line, fixed order, so shell hooks can read with exact-line greps. */
export function serializeRecord(record: SessionRecord): string {
  const ordered: Record<string, unknown> = {};
  for (const key of FIELD_ORDER) {
    const value = record[key];
    if (OPTIONAL_FIELDS.has(key) && (value === undefined || value === "")) continue;
    ordered[key] = value;
  }
  return JSON.stringify(ordered, null, 2) + "\n";
}

export class RecordParseError extends Error {}

export function parsePending(text: string): PendingOriginal | null {
  if (text === "") return null;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new RecordParseError(`launch_readiness_pending is not JSON: ${(e as Error).message}`);
  }
  const p = raw as Partial<PendingOriginal> | null;
  if (!p || typeof p !== "object") throw new RecordParseError("launch_readiness_pending is not an object");
  if (!isLifecycle(p.status)) throw new RecordParseError(`launch_readiness_pending status ${JSON.stringify(p.status)} is not a lifecycle`);
  if (!isProposal(p.proposal)) throw new RecordParseError(`launch_readiness_pending proposal ${JSON.stringify(p.proposal)} is not a proposal`);
  if (typeof p.note !== "string" || typeof p.stopped !== "boolean" || typeof p.archived !== "boolean") {
    throw new RecordParseError("launch_readiness_pending lacks note/stopped/archived");
  }
  return { status: p.status, proposal: p.proposal, note: p.note, stopped: p.stopped, archived: p.archived };
}

const STRING = 0;
const OPTIONAL = 1;
const BOOLEAN = 2;
const REQUIRED = 3;
/** What each field (FIELD_ORDER) must be, worked out once: `ls` parses every record, and two Set lookups per field per record add up. */
const FIELD_KINDS: readonly number[] = FIELD_ORDER.map((key) =>
  OPTIONAL_FIELDS.has(key) ? OPTIONAL : BOOLEAN_FIELDS.has(key) ? BOOLEAN : key === "session_id" || key === "status" || key === "worktree_path" ? REQUIRED : STRING,
);

/** Parse record text; throws RecordParseError naming what is wrong. */
export function parseRecord(text: string): { record: SessionRecord; pending: PendingOriginal | null } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new RecordParseError((e as Error).message);
  }
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) throw new RecordParseError("the record is not a JSON object");
  const obj = raw as Record<string, unknown>;
  const record: Record<string, unknown> = {};
  for (let i = 0; i < FIELD_ORDER.length; i++) {
    const key = FIELD_ORDER[i]!;
    const kind = FIELD_KINDS[i];
    const value = obj[key];
    if (kind === OPTIONAL) {
      if (value === undefined) continue;
      if (typeof value !== "string") throw new RecordParseError(`field ${key} is not a string`);
      record[key] = value;
      continue;
    }
    if (value === undefined) {
      if (kind === REQUIRED) throw new RecordParseError(`required field ${key} is missing`);
      record[key] = kind === BOOLEAN ? false : "";
      continue;
    }
    const want = kind === BOOLEAN ? "boolean" : "string";
    if (typeof value !== want) throw new RecordParseError(`field ${key} is not a ${want}`);
    record[key] = value;
  }
  if (!isLifecycle(record.status)) throw new RecordParseError(`status ${JSON.stringify(record.status)} is not a lifecycle`);
  if (!isProposal(record.proposal)) throw new RecordParseError(`proposal ${JSON.stringify(record.proposal)} is not a proposal`);
  if (!isAfterTurn(record.after_turn)) throw new RecordParseError(`after_turn ${JSON.stringify(record.after_turn)} is not allowed`);
  if (!isDeclaration(record.declared)) throw new RecordParseError(`declared ${JSON.stringify(record.declared)} is not allowed`);
  const pending = parsePending(record.launch_readiness_pending as string);
  return { record: record as unknown as SessionRecord, pending };
}
