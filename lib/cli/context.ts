// What the entry point hands every command besides stdio: the command list,
// passed down so a command that needs it (completion) never imports the registry.
import type { BaseContext, CommandClass } from "clipanion";

export interface SpexContext extends BaseContext {
  commands: readonly CommandClass<any>[];
}
