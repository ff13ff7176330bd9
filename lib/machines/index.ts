// Other machines (DESIGN.md §9, docs/machines.md): the machine list, the ssh
// transport, forwarding of the session verbs, and fan-out of live and bulk.
export { type Machine, MACHINES_SCHEMA, machinesFile, readMachines, findMachine, requireMachine, requireMachineName, requireDestination, updateMachines, addMachine, removeMachine } from "./list";
export { controlPath, sshInvocation, runSsh, closeConnection, type SshResult } from "./ssh";
export { remoteSpexCommand, remoteWord, runSpexOn, parseRemoteJson } from "./remote";
export { type MachineFacts, type SpexVersion, probeMachine, parseProbe, sameVersion, samePlatform, thisVersion } from "./probe";
export { type InstallResult, installOn, installableBinary } from "./install";
export { type MachineState, machineStates, describeState } from "./states";
export { type RemoteSpec, type ForwardPlan, type CallerIdentity, type MachineKind, planForward, withCaller, markMachine, relayRemote, machineClassifier } from "./forward";
export { type FleetTarget, type FleetError, type FleetLive, fleetTargets, observeFleet, askFleet, repeatEvery } from "./fleet";
export { type BulkFlags, type FleetBulkEnvelope, runFleetBulk, mergeEnvelopes, remoteBulkArgv, addressArgv, unanswered } from "./fleet-bulk";
