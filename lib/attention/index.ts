// Attention and budgets (DESIGN.md §15): notifications once per transition,
// usage read from each agent's own transcript, budgets, stalls.
export { ATTENTION_EVENTS, PERSON_EVENTS, type AttentionEvent, type Stall, BUDGET_NOTE, STALLS, isStall, eventOfChange } from "./events";
export { type AttentionConfig, type NotifySink, type ModelPrice, type BudgetDefault, loadAttentionConfig, sinksFor } from "./config";
export { type NotificationPayload, type BudgetFacts, payloadOf, attachCommand } from "./payload";
export { announce, deliverNotification, type DeliveryReport } from "./dispatch";
export { logNotify, readNotifyLog, notifyLogFile, type NotifyLogLine } from "./log";
export { installAttention } from "./observer";
