// Teardown and recovery (DESIGN.md §6): stop, interrupt, archive, resume,
// close, quarantine/restore and after-turn requests, all behind the one leaf
// guard (lib/proc probeLeaf) and the record lock.
export { type Leaf, type LeafOutcome, type WaitNotice, recordedLeaf, parseAgentPid, probe as probeRecordedLeaf, stopLeaf } from "./leaf";
export { type RuntimeStop, type TmuxOutcome, endTmuxSession, sessionPaneTarget } from "./runtime";
export { type StopResult, type StopOptions, type InterruptResult, stopSession, interruptSession } from "./stop";
export { type ArchiveResult, type ArchiveOptions, type RestoreArchivedResult, archiveSession, restoreArchived } from "./archive";
export { type CloseOptions, type CloseResult, closeSession, gatherCloseFacts } from "./close";
export { type InterruptedClose, finishInterruptedCloses, interruptedCloses } from "./interrupted";
export { resourceLockPaths } from "../store";
export { type CloseFacts, type ClosePlan, planClose } from "./plan";
export { type ResumeOptions, type ResumeResult, resumeSession } from "./resume";
export { type ResumeAllFilter, type ResumeAllOptions, type ResumeAllResult, type ResumeEntry, fleetStores, resumeAll, resumeCandidates } from "./resume-all";
export {
  type QuarantineClaim,
  type QuarantineProof,
  type QuarantineResult,
  type RestoreResult,
  quarantineRecord,
  restoreRecord,
} from "./quarantine";
export { type Residues, candidateNames, observeResidues } from "./residues";
export { type AfterTurnOutcome, requestAfterTurn, runAfterTurn } from "./after-turn";
export { flushTiming, timingReport } from "./timing";
export { describeRuntime, describeClose, describeFreed, describeWait } from "./describe";
