// Live panes and bulk actions (DESIGN.md §8): discovery, classification,
// bulk planning, guard and the queue runner.
export * from "./types";
export { liveServers, DEFAULT_SERVER_TOKEN } from "./servers";
export { LIST_FORMAT, parsePaneLines, listServerPanes } from "./discover";
export { type GovernedSession, type GovernedIndex, governedIndex, LIFECYCLE_STATUS, isOpen } from "./governed";
export { type ClassifyInput, classifyPane, newestLines, lastVisibleLine } from "./classify";
export { ProcessTree, type ProcessSource, detectRuleSet } from "./procs";
export { RULE_SETS, AGENT_RULE_SETS, ruleSetFor, SHELL_COMMANDS, type PaneRule, type RuleSet, type RuleHarness } from "./rules";
export { type LiveFilters, type LiveObservation, type ObserveOptions, observeLive, screenKey, unrecordedStalls } from "./observe";
export { projectMatcher, projectSlugOf, sameMachine } from "./project";
export { machineName } from "./machine";
export { parseStatuses } from "./filters";
export { watchLive } from "./watch";
export { liveConfig, type LiveConfig, BUILTIN_BULK_DEFAULTS, type BulkDefaults } from "./config";
