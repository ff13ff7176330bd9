// Sessions that outlive the terminal, the login and the machine's restart
// (issue 27, DESIGN.md §15): how the tmux server starts, what logind does at
// logout, and why an agent that should run is gone.
export { type LogindFacts, logoutKills, parseLogind, readLogind } from "./logind";
export { type ServerStartFacts, type ServerStartPlan, planServerStart, scopeHelps, scopeUnitName, serverStartFacts, userManagerReachable } from "./server-plan";
export { LOGOUT_KILLS, type LogoutCheck, logoutCheck, readLogoutCheck } from "./doctor";
export { OFFLINE_REASONS, type OfflineReason, REASON_TEXT, RESUMABLE_REASONS, type ReasonFacts, isOfflineReason, offlineReason } from "./reason";
