export * from "./schema";
export { serializeRecord, parseRecord, RecordParseError } from "./codec";
export { type RecordReading, readRecordFile, readListedRecordFile, readOwnBytes, writeRecordFile, writeJsonDurably, readJsonState, type JsonReading, publicRecord } from "./file";
export { fsyncDir } from "../nofollow";
export { dropListingEntries, flagSideFile, notePreview, readListingIndex } from "./listing";
export { type Liveness, type DisplayStatus, DISPLAY_STATUSES, recordLiveness, displayStatus } from "./display";
export {
  type RecordChange,
  type CommitObserver,
  type UpdateContext,
  registerCommitObserver,
  readSession,
  refuseUnusable,
  updateRecord,
  writeHeldRecord,
} from "./update";
