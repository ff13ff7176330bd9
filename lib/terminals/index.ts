// Terminals (DESIGN.md §9): plain shells beside the agents, each with a small
// record of its own, no worktree or branch, closed with their session.
export { type TerminalRecord, type TerminalReading, type InterruptedTerminalClose, isTerminalId, readTerminal, listTerminalIds, interruptedTerminalCloses } from "./record";
export { type NewTerminalInput, type TerminalClose, SPEX_TERMINAL_OPTION, newTerminal, closeTerminal, closeSessionTerminals, finishInterruptedTerminalClose } from "./open";
export { type TerminalState, type TerminalRow, type CorruptTerminalRow, type TerminalListRow, listTerminals, resolveTerminal, readAllTerminals } from "./view";
export { type TerminalInput, type TerminalInputResult, type TerminalScreen, sendToTerminal, readTerminalScreen } from "./io";
export { MAX_TERMINAL_NAME, terminalOwner } from "./names";
