// Every command class the CLI knows. To add a verb: write its file, then add
// its import here (`import { XCommand } from "./x";`, one class per line's
// braces is fine) and its class to `commands`. That is all: `make` turns this
// list into the command manifest (scripts/gen-commands.ts ->
// lib/generated/commands.ts) that help, completion and "did you mean" read,
// and through which the entry point imports only the module of the verb it
// runs. Nothing imports this file at run time; test/unit/cli-manifest.test.ts
// fails while the manifest is older than these classes.
import type { CommandClass } from "clipanion";
import { SessionLsCommand } from "./session/ls";
import { SessionShowCommand } from "./session/show";
import { SessionRenameCommand } from "./session/rename";
import { SessionDoneCommand } from "./session/done";
import { SessionParkCommand } from "./session/park";
import { SessionAskCommand } from "./session/ask";
import { SessionLiveCommand } from "./session/live";
import { SessionBulkCommand } from "./session/bulk";
import { InternalSessionStateCommand } from "./internal/session-state";
import { SessionNewCommand } from "./session/new";
import { SessionAttachCommand } from "./session/attach";
import { InternalHookCommand } from "./internal/hook";
import { InternalNotifyCommand } from "./internal/notify";
import { InternalPostCheckoutCommand } from "./internal/post-checkout";
import { DoctorCommand } from "./doctor";
import { VersionCommand } from "./version";
import { InternalCompleteCommand } from "./internal/complete";
import { SessionStopCommand } from "./session/stop";
import { SessionInterruptCommand } from "./session/interrupt";
import { SessionArchiveCommand } from "./session/archive";
import { SessionResumeCommand } from "./session/resume";
import { SessionCloseCommand } from "./session/close";
import { SessionDiffCommand } from "./session/diff";
import { SessionMergeCommand } from "./session/merge";
import { SessionQuarantineCommand } from "./session/quarantine";
import { InternalAfterTurnCommand } from "./internal/after-turn";
import { InternalLaunchQueueCommand } from "./internal/launch-queue";
import { SessionSendCommand } from "./session/send";
import { SessionMessageStatusCommand } from "./session/message-status";
import { SessionDeliverCommand } from "./session/deliver";
import { SessionWaitCommand } from "./session/wait";
import { SessionWatchCommand } from "./session/watch";
import { SessionWatchListCommand } from "./session/watch/list";
import { SessionWatchCancelCommand } from "./session/watch/cancel";
import { SessionWatchStreamCommand } from "./session/watch/stream";
import { SessionReparentCommand } from "./session/reparent";
import { ServeCommand } from "./serve";
import { DashboardCommand } from "./dashboard";
import { McpCommand } from "./mcp";
import { TaskNewCommand } from "./task/new";
import { TaskLsCommand } from "./task/ls";
import { TaskClaimCommand } from "./task/claim";
import { TaskFinishCommand } from "./task/finish";
import { TaskReleaseCommand } from "./task/release";
import { TaskRmCommand } from "./task/rm";
import { ReserveAddCommand } from "./reserve/add";
import { ReserveLsCommand } from "./reserve/ls";
import { ReserveReleaseCommand } from "./reserve/release";
import { GroupNewCommand } from "./group/new";
import { GroupLsCommand } from "./group/ls";
import { GroupRmCommand } from "./group/rm";
import { GroupFileCommand } from "./group/file";
import { SessionReadCommand } from "./session/read";
import { TerminalNewCommand } from "./terminal/new";
import { TerminalLsCommand } from "./terminal/ls";
import { TerminalSendCommand } from "./terminal/send";
import { TerminalReadCommand } from "./terminal/read";
import { TerminalCloseCommand } from "./terminal/close";
import { TerminalAttachCommand } from "./terminal/attach";
import { SnapshotCommand } from "./snapshot";
import { UsageCommand } from "./usage";
import { MachineAddCommand } from "./machine/add";
import { MachineLsCommand } from "./machine/ls";
import { MachineRmCommand } from "./machine/rm";
import { MachineInstallCommand } from "./machine/install";
import { BoardCommand } from "./board";
import { InternalSetupCommand } from "./internal/setup";
import { SessionForwardCommand } from "./session/forward";

export const commands: CommandClass<any>[] = [
  SessionLsCommand,
  SessionShowCommand,
  SessionRenameCommand,
  SessionDoneCommand,
  SessionParkCommand,
  SessionAskCommand,
  SessionLiveCommand,
  SessionBulkCommand,
  InternalSessionStateCommand,
  SessionNewCommand,
  SessionAttachCommand,
  InternalHookCommand,
  InternalNotifyCommand,
  InternalPostCheckoutCommand,
  DoctorCommand,
  VersionCommand,
  InternalCompleteCommand,
  SessionStopCommand,
  SessionInterruptCommand,
  SessionArchiveCommand,
  SessionResumeCommand,
  SessionCloseCommand,
  SessionDiffCommand,
  SessionMergeCommand,
  SessionQuarantineCommand,
  InternalAfterTurnCommand,
  InternalLaunchQueueCommand,
  SessionSendCommand,
  SessionMessageStatusCommand,
  SessionDeliverCommand,
  SessionWaitCommand,
  SessionWatchCommand,
  SessionWatchListCommand,
  SessionWatchCancelCommand,
  SessionWatchStreamCommand,
  SessionReparentCommand,
  ServeCommand,
  DashboardCommand,
  McpCommand,
  TaskNewCommand,
  TaskLsCommand,
  TaskClaimCommand,
  TaskFinishCommand,
  TaskReleaseCommand,
  TaskRmCommand,
  ReserveAddCommand,
  ReserveLsCommand,
  ReserveReleaseCommand,
  GroupNewCommand,
  GroupLsCommand,
  GroupRmCommand,
  GroupFileCommand,
  SessionReadCommand,
  TerminalNewCommand,
  TerminalLsCommand,
  TerminalSendCommand,
  TerminalReadCommand,
  TerminalCloseCommand,
  TerminalAttachCommand,
  SnapshotCommand,
  UsageCommand,
  MachineAddCommand,
  MachineLsCommand,
  MachineRmCommand,
  MachineInstallCommand,
  BoardCommand,
  InternalSetupCommand,
  SessionForwardCommand,
];
