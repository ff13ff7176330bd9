// The release artifacts a user downloads, run as they would (make release-check
// points SPEX_TEST_BIN at dist/release/spex-<this machine's target> and
// SPEX_TEST_CJS at dist/release/spex.cjs): each names its target, creates a
// session and lists it, and serves `spex mcp`, with no checkout beside it.
import { afterEach, describe, expect, test } from "bun:test";
import { connectMcp, jsonOf } from "../support/mcp";
import { type Sandbox, SPEX_BIN, SPEX_CJS, sandbox } from "../support/sandbox";

let sb: Sandbox | undefined;
afterEach(() => sb?.cleanup());

const TARGET = process.env.SPEX_RELEASE_TARGET || `${process.platform}-${process.arch}`;

for (const [runner, artifact, target] of [["bin", SPEX_BIN, TARGET], ["node", SPEX_CJS, "node"]] as const) {
  describe(`release ${runner === "bin" ? "binary" : "Node bundle"} (${artifact})`, () => {
    test(`--version names the target ${target}, and version --json agrees`, () => {
      sb = sandbox();
      const line = sb.spex(["--version"], { runner });
      expect(line.code).toBe(0);
      expect(line.stdout).toMatch(new RegExp(`^spex \\d+\\.\\d+\\.\\d+ \\(commit \\S+, built \\S+, for ${target}\\)\\n$`));
      expect(JSON.parse(sb.spex(["version", "--json"], { runner }).stdout).target).toBe(target);
    });

    test("session new --no-launch makes a session that ls --json lists", () => {
      sb = sandbox();
      const made = sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "--json", "smoke test of a release"], { runner });
      expect(made.stderr).toBe("");
      expect(made.code).toBe(0);
      const id = JSON.parse(made.stdout).session_id as string;
      const rows = JSON.parse(sb.spex(["session", "ls", "--json"], { runner }).stdout) as { id: string; kind: string }[];
      expect(rows.map((r) => [r.id, r.kind])).toEqual([[id, "ok"]]);
    });

    // The MCP SDK is a module of its own (lib/mcp/sdk-load.ts): a release that left it out started every command but this one.
    test("spex mcp answers initialize and a tools/call (the MCP SDK module travels with the artifact)", async () => {
      sb = sandbox();
      const made = JSON.parse(sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "--json", "--name", "smoke", "reached over mcp"], { runner }).stdout);
      const mcp = await connectMcp(sb, { runner });
      try {
        expect(mcp.client.getServerVersion()?.name).toBe("spex");
        const listed = await mcp.call("session_list");
        expect(listed.isError).toBeFalsy();
        expect(JSON.stringify(jsonOf(listed))).toContain(made.session_id);
        expect(mcp.stderr()).toBe("");
      } finally {
        await mcp.close();
      }
    });
  });
}
