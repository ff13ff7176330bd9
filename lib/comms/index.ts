// Messages, waiting and watching (DESIGN.md §1.11, §7): the durable timeline,
// the exactly-once delivery queue, wait cursors, watchers and reparenting.
export { type Sender, type TimelineEvent, type EventBody, type MergeEvent, appendEvent, eventsAfter, lastSeq, lastStateEvent, lastMergeEvent } from "./timeline";
export {
  type QueuedMessage,
  type MessageState,
  MAX_MESSAGE_BYTES,
  queueDepthLimit,
  findMessage,
  withDelivery,
  listPending,
  listSettled,
  positionOf,
} from "./queue";
export { type MessageView, messageView, listQueuedMessages } from "./status";
export { revokeSender, isRevoked } from "./revoke";
export { inboxMarker } from "./paths";
export { screenAtRest, pasteEchoed, echoProbe } from "./screen";
export { type DrainReport, type HandoverOutcome, type DrainOptions, drainDeliveries, drainNow, kickWaitingQueues } from "./deliver";
export { typedText } from "./envelope";
export { recordAtRest, readRest } from "./rest";
export { scheduleDrain } from "./spawn";
export { type SendInput, type SendResult, type SenderInput, sendMessage } from "./send";
export {
  type WatchSource,
  type WatcherEntry,
  type WatchRelation,
  type SourceChange,
  readWatchers,
  addWatcher,
  addWatcherUnderLock,
  removeWatcherSource,
  listWatchRelations,
} from "./watchers";
export { watchSession, cancelWatch, dropNotices } from "./follow";
export { reparentSession, type ReparentResult } from "./reparent";
export { commsObserver, stateEventOf, worthNotice, noticeText } from "./notify";
export {
  type WaitOptions,
  type WaitResult,
  type WaitOutcome,
  AGENT_WAIT_DEFAULT_MS,
  AGENT_WAIT_MAX_MS,
  agentWaitTimeoutMs,
  parseUntil,
  waitForTargets,
  exitCodeOf,
} from "./wait";
export { type TargetState, PaneLookup, targetState } from "./target-state";
export { readCursor, writeCursor, advanceCursor } from "./cursor";
export { type StreamOptions, type StreamEnd, type StreamEvent, streamEvents, streamLabeler, describeStreamEvent } from "./stream";
export { resolveSender } from "./sender";
export { type SendToInput, type WaitOnInput, sendToSelector, waitOnSelectors } from "./verbs";
