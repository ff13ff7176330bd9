// Coordination between sessions (DESIGN.md §9): a shared task list with
// dependencies, and advisory file reservations.
export { actingSession, optionalActingSession, actingActor, optionalActor, isPerson, personActor, PERSON_PREFIX } from "./actor";
export { type TaskView, listTasks, newTask, claim as claimTask, finish as finishTask, release as releaseTask, remove as removeTask } from "./tasks";
export { type TaskState, normalTaskId } from "./task-rules";
export { type LeaseView, type ReserveResult, listReservations, reserve, releaseReservations } from "./reservations";
export { type LeaseMode, DEFAULT_LEASE_TTL_MS, MAX_LEASE_TTL_MS, parseTtl, patternsOverlap } from "./lease-rules";
export { type GroupView, type GroupRemoval, type GroupFiling, listGroups, createGroup, deleteGroup, fileSessions, requireGroup, groupMembership } from "./groups";
export { COORD_LIMITS, characters, refuseTooLong, refuseTooMany } from "./limits";
