// Every verb a user can reach has help with examples and a --json switch.
import { expect, test } from "bun:test";
import { commands } from "../../cmd/registry";
import { buildCli } from "../../cmd/spex";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { Writable } from "node:stream";
import { withPlaceholders } from "../../lib/cli/placeholders";
import { reportError } from "../../lib/cli/output";
import { SpexError } from "../../lib/errors";

const visible = commands.filter((c) => c.usage !== undefined);

test("every visible verb has a description, details or examples, and at least two examples", () => {
  const lacking = visible
    .filter((c) => !c.usage!.description || (c.usage!.examples?.length ?? 0) < 2)
    .map((c) => (c.paths ?? []).map((p) => p.join(" ")).join(" | "));
  expect(lacking).toEqual([]);
});

test("hidden commands are only the hook-facing internal ones", () => {
  const hidden = commands.filter((c) => c.usage === undefined).flatMap((c) => (c.paths ?? []).map((p) => p.join(" ")));
  expect(hidden.every((p) => p.startsWith("internal "))).toBe(true);
});

test("every verb accepts --json", () => {
  const cli = buildCli(commands);
  const defs = cli.definitions();
  const without = defs.filter((d) => !d.path.startsWith("spex internal") && !d.options.some((o) => o.definition.includes("--json"))).map((d) => d.path);
  expect(without).toEqual([]);
});

test("help pages name option values (`--session <id>`, `--launcher <name>`), never clipanion's `#0`", () => {
  const cli = buildCli(commands);
  const pages = [cli.usage(null), ...visible.map((c) => cli.usage(c, { detailed: true }))];
  expect(pages.filter((p) => /#\d/.test(p))).toEqual([]);
  const all = pages.join("\n");
  expect(all).toContain("[--session <id>]");
  expect(all).toContain("--launcher <name>");
  expect(all).toContain("--prompt-file <file>");
  // Every option that takes a value shows a placeholder after its name.
  for (const d of cli.definitions()) {
    for (const o of d.options) if (!/^--?[\w-]+(,--?[\w-]+)*( <[^>]+>)?$/.test(o.definition)) throw new Error(`${d.path}: ${o.definition}`);
  }
});

test("an option nobody listed still gets a readable placeholder", () => {
  expect(withPlaceholders("spex x [--frobs #0] [--notes-file #0] [--session #0] [--json]")).toBe("spex x [--frobs <frobs>] [--notes-file <file>] [--session <id>] [--json]");
});

/** Each `new SpexError(…)` call in the sources, with its arguments (strings and nested calls skipped over). */
function errorCalls(source: string): string[] {
  const calls: string[] = [];
  for (let at = source.indexOf("new SpexError("); at >= 0; at = source.indexOf("new SpexError(", at + 1)) {
    let depth = 0;
    let quote = "";
    let i = at + "new SpexError".length;
    for (; i < source.length; i++) {
      const c = source[i]!;
      if (quote) {
        if (c === "\\") i++;
        else if (c === quote) quote = "";
      } else if (c === '"' || c === "'" || c === "`") quote = c;
      else if (c === "(") depth++;
      else if (c === ")" && --depth === 0) break;
    }
    calls.push(source.slice(at, i + 1));
  }
  return calls;
}

test("no error message or hint in the sources carries a line break", () => {
  const root = join(__dirname, "..", "..");
  const files = ["lib", "cmd"].flatMap((d) => readdirSync(join(root, d), { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts")).map((f) => join(root, d, f)));
  const offenders = files.flatMap((f) => errorCalls(readFileSync(f, "utf8")).filter((c) => c.includes("\\n")).map((c) => `${f}: ${c.slice(0, 120)}`));
  expect(offenders).toEqual([]);
});

test("an error whose text holds line breaks is still one line, without a literal \\n, on stderr and in --json", () => {
  const chunks = { out: "", err: "" };
  const io = {
    stdout: new Writable({ write: (c, _e, cb) => ((chunks.out += c), cb()) }),
    stderr: new Writable({ write: (c, _e, cb) => ((chunks.err += c), cb()) }),
  };
  const code = reportError(new SpexError("launch_failed", "the agent exited; last screen:\nline one\r\n  line two\n", { hint: "fix it\nthen resume" }), io, true);
  expect(code).toBe(1);
  expect(chunks.err).toBe("spex: the agent exited; last screen: line one line two; fix it then resume [launch_failed]\n");
  expect(chunks.err).not.toContain("\\n");
  const json = JSON.parse(chunks.out).error;
  expect(json.message).not.toMatch(/\n|\\n/);
  expect(json.hint).toBe("fix it then resume");
});

test("interrupt --help says what interrupt does to the record: a working or asking session is declared idle", () => {
  const page = buildCli(commands).usage(commands.find((c) => c.paths?.[0]?.join(" ") === "session interrupt")!, { detailed: true });
  expect(page).not.toContain("the record does not change");
  expect(page).toMatch(/working .*or .asking. is declared .idle./s);
});
