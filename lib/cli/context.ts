// What the entry point hands every command besides stdio: the command
// manifest's shapes, passed down so a command that needs them (completion)
// never imports the registry.
import type { BaseContext } from "clipanion";
import type { CommandShape } from "./shape";

export interface SpexContext extends BaseContext {
  shapes: readonly CommandShape[];
}
