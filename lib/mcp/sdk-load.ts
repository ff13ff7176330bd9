// The MCP SDK for `spex mcp`, evaluated from the text the build embedded
// (scripts/gen-mcp-sdk.ts explains why it is text). The bundle needs only
// Node built-ins from outside, so a require rooted anywhere serves it.
import { createRequire } from "node:module";

export type McpSdk = typeof import("./sdk");

let loaded: McpSdk | undefined;

export async function loadMcpSdk(): Promise<McpSdk> {
  if (loaded) return loaded;
  const { MCP_SDK_SOURCE } = await import("../generated/mcp-sdk");
  const module = { exports: {} as McpSdk };
  // Our own bundle, made at build time from a pinned dependency: never text from outside.
  new Function("module", "exports", "require", MCP_SDK_SOURCE)(module, module.exports, createRequire(process.execPath));
  loaded = module.exports;
  return loaded;
}
