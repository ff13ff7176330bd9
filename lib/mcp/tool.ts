// What a spex MCP tool is: a name, words an agent can act on, its input
// fields, hints for the client, and one call into the same lib/ function the
// CLI verb uses. Nothing here knows the MCP SDK.
import type { ProjectStore } from "../store";
import type { Caller } from "./caller";
import type { InputShape } from "./schema";

export interface ToolContext {
  store: ProjectStore;
  /** Read for each call (a session closed meanwhile is no caller any more). */
  caller: Caller;
  /** The client's own name from `initialize` (e.g. "claude-code"): a sender with no session here is named by it. */
  client: string;
  /** Aborted when the client cancels this call. */
  signal?: AbortSignal;
}

/** The MCP tool annotations: hints a client may show or act on, never a guarantee. */
export interface ToolHints {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  input: InputShape;
  hints: ToolHints;
  /**
   * structuredContent must be an object: a tool whose answer is a list (as the
   * CLI's --json prints it) is wrapped under this key there; the text content
   * stays exactly the CLI's JSON.
   */
  listKey?: string;
  // Arguments arrive checked against `input`, so the fields have the declared types.
  call(ctx: ToolContext, args: Record<string, any>): Promise<unknown> | unknown;
}

export const READ: ToolHints = { readOnlyHint: true, openWorldHint: false };
export const WRITE: ToolHints = { readOnlyHint: false, destructiveHint: false, openWorldHint: false };
