// Every spex command starts without the MCP SDK (zod, ajv: half a megabyte
// that cost each command ~12 ms of parsing): only `spex mcp` loads it, from a
// module of its own. A static import of it anywhere would pull it back in.
import { expect, test } from "bun:test";
import { join } from "node:path";
import { sdkModulePath } from "../../lib/mcp/sdk-load";

const ROOT = join(__dirname, "..", "..");

test("the commands' bundle carries no MCP SDK code; the SDK entry does", async () => {
  const commands = await Bun.build({ entrypoints: [join(ROOT, "cmd", "main.ts")], target: "bun" });
  const text = await commands.outputs[0]!.text();
  // Names only the SDK's own code holds (the protocol version table, zod's error class, ajv).
  const marks = ["LATEST_PROTOCOL_VERSION", "$ZodError", "ajv/dist"];
  expect(marks.filter((m) => text.includes(m))).toEqual([]);
  const sdk = await (await Bun.build({ entrypoints: [join(ROOT, "lib", "mcp", "sdk.ts")], target: "node", format: "esm" })).outputs[0]!.text();
  expect(marks.filter((m) => sdk.includes(m))).toEqual(marks);
});

test("each build finds the SDK module where it keeps it", () => {
  // From source: the SDK entry itself.
  expect(sdkModulePath("/nowhere/cmd/main.ts")).toBe(join(ROOT, "lib", "mcp", "sdk.ts"));
});
