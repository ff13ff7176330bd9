export { createSession, type CreateInput, type CreateResult, sessionIdForKey, createPayloadHash } from "./create";
export { recoverAbandonedCreates, listReceipts, type CreateReceipt } from "./receipt";
