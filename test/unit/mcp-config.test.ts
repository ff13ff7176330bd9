// The registration edits themselves: the JSON merge of a server entry and the
// TOML table edit for Codex, each keeping whatever the user has.
import { describe, expect, test } from "bun:test";
import { isSpexServer, mergeMcpServer } from "../../lib/harness/mcp-config";
import { codexMcpTable, upsertCodexMcp } from "../../lib/harness/codex-mcp";

const server = { command: "/opt/spex/bin/spex", args: ["mcp"] };
const entry = { command: server.command, args: server.args };

describe("mcpServers in a JSON config", () => {
  test("added beside the user's servers; ours replaced; another server named spex kept as it is", () => {
    expect(mergeMcpServer({ theme: "dark", mcpServers: { docs: { command: "d" } } }, entry)).toEqual({ settings: { theme: "dark", mcpServers: { docs: { command: "d" }, spex: entry } }, registered: true });
    expect(mergeMcpServer({ mcpServers: { spex: { command: "/old/spex-1.0", args: ["mcp"] } } }, entry).settings).toEqual({ mcpServers: { spex: entry } });
    const theirs = { mcpServers: { spex: { command: "npx", args: ["spex-clone"] } } };
    expect(mergeMcpServer(theirs, entry)).toEqual({ settings: theirs, registered: false });
  });

  test("a spex server is this command's `spex … mcp` and nothing looser", () => {
    expect(isSpexServer({ command: "spex", args: ["mcp"] })).toBe(true);
    expect(isSpexServer({ command: "/home/u/.spex/bin/spex-1a2b3c", args: ["mcp"] })).toBe(true);
    expect(isSpexServer({ command: "spex", args: ["serve"] })).toBe(false);
    expect(isSpexServer({ command: "node", args: ["mcp"] })).toBe(false);
    expect(isSpexServer("spex mcp")).toBe(false);
  });
});

describe("[mcp_servers.spex] in a Codex config", () => {
  const table = codexMcpTable(server).join("\n");

  test("a command or argument holding any character a path can (a DEL, a quote, controls) is TOML a parser reads back", () => {
    const odd = { command: "/opt/a\x7fb\"c\\d\x01/spex", args: ["--home", "/h/night\tshift\x7f", "mcp"] };
    const parsed = Bun.TOML.parse(upsertCodexMcp("", odd).text) as { mcp_servers: { spex: { command: string; args: string[] } } };
    expect(parsed.mcp_servers.spex).toMatchObject(odd);
  });

  test("appended after the user's settings, which keep every byte; idempotent", () => {
    const user = 'model = "o4"\r\n[projects."/r"]\r\ntrust_level = "trusted"';
    const once = upsertCodexMcp(user, server);
    expect(once).toMatchObject({ registered: true });
    expect(once.text).toBe(`${user}\r\n\r\n${codexMcpTable(server).join("\r\n")}\r\n`);
    expect(upsertCodexMcp(once.text, server).text).toBe(once.text);
    expect(upsertCodexMcp("", server).text).toBe(`${table}\n`);
  });

  test("our table is rewritten in place, the tables around it untouched", () => {
    const old = table.replace(server.command, "/old/spex").replace("330", "60");
    const text = `a = 1\n\n${old}\n\n[mcp_servers.docs]\ncommand = "d"\n`;
    expect(upsertCodexMcp(text, server).text).toBe(`a = 1\n\n${table}\n\n[mcp_servers.docs]\ncommand = "d"\n`);
  });

  test("a table spex did not write, or mcp_servers defined inline, is left alone", () => {
    const own = '[mcp_servers.spex]\ncommand = "wrapper"\n';
    expect(upsertCodexMcp(own, server)).toMatchObject({ text: own, registered: false });
    const inline = 'mcp_servers = { docs = { command = "d" } }\n';
    expect(upsertCodexMcp(inline, server)).toMatchObject({ text: inline, registered: false });
    const dotted = '[mcp_servers]\nspex.command = "x"\n';
    expect(upsertCodexMcp(dotted, server)).toMatchObject({ text: dotted, registered: false });
    // A header inside a multi-line string is no table.
    const quoted = 'note = """\n[mcp_servers.spex]\n"""\n';
    expect(upsertCodexMcp(quoted, server)).toMatchObject({ registered: true, text: `${quoted}\n${table}\n` });
  });
});
