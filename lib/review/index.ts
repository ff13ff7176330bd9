// Review and land (DESIGN.md §2 lib/review): a session's diff against its fork
// point, and merging its branch onto the main branch without disturbing the
// user's checkout.
export { type DiffFile, type DiffOptions, type FileStatus, type SessionDiff, diffSession, parseRawNumstat, cutPatch } from "./diff";
export { type MergeOptions, type MergeResult, mergeSession } from "./merge";
export { type Landing, type MergeStrategy } from "./strategies";
export { workPaths } from "./work";
export { describeMerge, describeDiffFiles } from "./describe";
export { type DispatchOptions, type DispatchResult, dispatchMerge, dispatchPrompt } from "./dispatch";
