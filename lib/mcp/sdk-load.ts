// The MCP SDK for `spex mcp`, from a module of its own (Makefile: dist/mcp-sdk.mjs):
// bundled with the commands it cost every one of them ~12 ms of parsing at
// startup. The compiled binary carries it as a second entry point under its
// repository path; the Node bundle finds it beside itself; run from source,
// lib/mcp/sdk.ts is imported as it is.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";

export type McpSdk = typeof import("./sdk");

/** Where this build keeps the SDK module. */
export function sdkModulePath(script = process.argv[1] ?? ""): string {
  const compiled = script.startsWith("/$bunfs/") || script.startsWith("B:/~BUN/");
  // The binary embeds dist/mcp-sdk.mjs under its repository path (bun names the embedded entry .js).
  const candidates = compiled ? ["mcp-sdk.js", "mcp-sdk.mjs"].map((f) => join(dirname(script), "dist", f)) : [join(dirname(script), "mcp-sdk.mjs")];
  return candidates.find((c) => existsSync(c)) ?? join(__dirname, "sdk.ts");
}

// A bundler would pull a visible import() of it back into the commands' code: the path is a runtime value.
const importAt = new Function("path", "return import(path)") as (path: string) => Promise<McpSdk>;

let loaded: Promise<McpSdk> | undefined;

export function loadMcpSdk(): Promise<McpSdk> {
  return (loaded ??= importAt(sdkModulePath()));
}
