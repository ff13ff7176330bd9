// The board's screen (Ink, React, yoga-layout: ~1.5 MB) lives in a module of
// its own, dist/board.mjs (Makefile, scripts/build-board.ts), so no other verb
// parses it at startup. The compiled binary carries it as an extra entry
// point; the Node bundle finds it beside itself; run from source,
// lib/board/ui/main.tsx is imported as it is. (The MCP SDK is loaded the same
// way: lib/mcp/sdk-load.ts.)
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";

export type BoardUi = typeof import("./ui/main");

export function boardModulePath(script = process.argv[1] ?? ""): string {
  const compiled = script.startsWith("/$bunfs/") || script.startsWith("B:/~BUN/");
  // The binary embeds dist/board.mjs under its repository path (bun names the embedded entry .js).
  const candidates = compiled ? ["board.js", "board.mjs"].map((f) => join(dirname(script), "dist", f)) : [join(dirname(script), "board.mjs")];
  return candidates.find((c) => existsSync(c)) ?? join(__dirname, "ui", "main.tsx");
}

// A bundler would pull a visible import() of it back into the commands' code: the path is a runtime value.
const importAt = new Function("path", "return import(path)") as (path: string) => Promise<BoardUi>;

/**
 * Variables Ink reads once, when it is imported: DEV=true makes it reach for
 * React's devtools (not shipped), and a CI variable makes it hold every frame
 * until exit. Neither means anything to a person's board: hidden for the import only.
 */
const IMPORT_TIME_VARIABLES = (env: NodeJS.ProcessEnv) => Object.keys(env).filter((k) => k === "DEV" || k === "CI" || k === "CONTINUOUS_INTEGRATION" || k.startsWith("CI_"));

export async function loadBoardUi(path = boardModulePath()): Promise<BoardUi> {
  const hidden = IMPORT_TIME_VARIABLES(process.env).map((k) => [k, process.env[k]] as const);
  for (const [k] of hidden) delete process.env[k];
  try {
    return await importAt(path);
  } finally {
    for (const [k, v] of hidden) process.env[k] = v;
  }
}
