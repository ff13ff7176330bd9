// The parts of the MCP SDK that `spex mcp` uses, as one entry: the build
// bundles this file on its own (scripts/gen-mcp-sdk.ts) and the binaries carry
// that bundle as text, evaluated only when `spex mcp` runs (./sdk-load.ts).
export { Server } from "@modelcontextprotocol/sdk/server/index.js";
export { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
export {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
