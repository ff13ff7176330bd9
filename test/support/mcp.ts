// The MCP SDK's own client, talking to the built binary's `spex mcp` over
// stdio, as an agent CLI would: for the protocol tests and the bench.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { type Sandbox, SPEX_BIN, SPEX_CJS } from "./sandbox";

export interface McpSession {
  client: Client;
  transport: StdioClientTransport;
  /** What the server wrote on stderr (nothing, normally). */
  stderr(): string;
  /** tools/call, answering the result whatever its isError. */
  call(name: string, args?: Record<string, unknown>): Promise<ToolResult>;
  close(): Promise<void>;
}

export interface ToolResult {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, any>;
}

/** The text content of a result parsed as JSON (a success carries the CLI's --json text). */
export function jsonOf(result: ToolResult): any {
  return JSON.parse(result.content[0]!.text!);
}

/** A tool error's spex code, from its structured content; asserted to be there in the text too. */
export function errorCodeOf(result: ToolResult): string {
  if (!result.isError) throw new Error(`expected a tool error, got ${result.content[0]?.text}`);
  const code = result.structuredContent?.error?.code as string;
  if (!result.content[0]!.text!.includes(`[${code}]`)) throw new Error(`the error text does not carry [${code}]: ${result.content[0]!.text}`);
  return code;
}

export async function connectMcp(sb: Sandbox, opts: { env?: Record<string, string>; cwd?: string; runner?: "bin" | "node"; name?: string } = {}): Promise<McpSession> {
  const [command, pre] = opts.runner === "node" ? ["node", [SPEX_CJS]] : [SPEX_BIN, []];
  const env: Record<string, string> = { ...sb.env, ...(opts.env ?? {}) };
  for (const [k, v] of Object.entries(env)) if (v === "") delete env[k];
  const transport = new StdioClientTransport({ command, args: [...pre, "mcp"], env, cwd: opts.cwd ?? sb.repo, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (d) => (stderr += d));
  const client = new Client({ name: opts.name ?? "spex-test", version: "1.0.0" });
  await client.connect(transport);
  return {
    client,
    transport,
    stderr: () => stderr,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as ToolResult,
    close: () => client.close(),
  };
}
