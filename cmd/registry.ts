// Every command class the CLI knows. Add a verb here when you add its file.
import type { CommandClass } from "clipanion";
import { SessionLsCommand } from "./session/ls";
import { SessionShowCommand } from "./session/show";
import { SessionRenameCommand } from "./session/rename";
import { SessionDoneCommand } from "./session/done";
import { SessionParkCommand } from "./session/park";
import { SessionAskCommand } from "./session/ask";
import { InternalSessionStateCommand } from "./internal/session-state";
import { SessionNewCommand } from "./session/new";
import { SessionAttachCommand } from "./session/attach";
import { InternalHookCommand } from "./internal/hook";
import { InternalPostCheckoutCommand } from "./internal/post-checkout";

export const commands: CommandClass<any>[] = [
  SessionLsCommand,
  SessionShowCommand,
  SessionRenameCommand,
  SessionDoneCommand,
  SessionParkCommand,
  SessionAskCommand,
  InternalSessionStateCommand,
  SessionNewCommand,
  SessionAttachCommand,
  InternalHookCommand,
  InternalPostCheckoutCommand,
];
