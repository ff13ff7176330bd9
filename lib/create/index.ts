export { createSession, type CreateInput, type CreateResult, sessionIdForKey, createPayloadHash } from "./create";
export { recoverAbandonedCreates, listReceipts, type CreateReceipt } from "./receipt";
export { type QueueDrain, drainLaunchQueue, holdsSlot, launchDecision, queuePositionOf, usedSlots } from "./launch-queue";
export { placementGroup, refuseBlankPrompt } from "./plan";
