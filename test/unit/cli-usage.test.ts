// Every verb a user can reach has help with examples and a --json switch.
import { expect, test } from "bun:test";
import { commands } from "../../cmd/registry";
import { buildCli } from "../../cmd/spex";

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
  const cli = buildCli();
  const defs = cli.definitions();
  const without = defs.filter((d) => !d.path.startsWith("spex internal") && !d.options.some((o) => o.definition.includes("--json"))).map((d) => d.path);
  expect(without).toEqual([]);
});
