// The command manifest (lib/generated/commands.ts) is made from the command
// classes at build time; help, completion and the verb lookup read it instead
// of loading every command. It must say exactly what the classes say.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { Command, type CommandClass, Option } from "clipanion";
import { commands } from "../../cmd/registry";
import { COMMANDS } from "../../lib/generated/commands";
import { shapeOf } from "../../lib/cli/shape";
import { MANIFEST_FILE, OVERVIEW_FILE, renderManifest, renderOverviewModule } from "../../scripts/gen-commands";
import { OVERVIEW_BODY } from "../../lib/generated/overview";
import { renderOverview } from "../../lib/cli/overview";

test("the manifest is what the registry's classes generate today (run `make build` after adding a verb or an option)", () => {
  expect(readFileSync(MANIFEST_FILE, "utf8")).toBe(renderManifest());
  expect(readFileSync(OVERVIEW_FILE, "utf8")).toBe(renderOverviewModule());
});

test("the overview made at build time is the one the manifest renders: every visible verb's usage, under its category", () => {
  expect(`spex - 9.9.9\n${OVERVIEW_BODY}`).toBe(renderOverview(COMMANDS, "9.9.9"));
  for (const e of COMMANDS.filter((c) => !c.hidden)) expect(OVERVIEW_BODY).toContain(`\n  ${e.usage}\n`);
  expect(OVERVIEW_BODY).toContain("\n  spex help [command...]\n");
});

test("each manifest entry describes its class and loads exactly that class", async () => {
  expect(COMMANDS.length).toBe(commands.length);
  for (const [i, entry] of COMMANDS.entries()) {
    const { load: _load, usage: _usage, ...shape } = entry;
    expect(shape).toEqual(shapeOf(commands[i]!));
    expect(await entry.load()).toBe(commands[i]!);
  }
});

test("a new option on a class changes the manifest, so a stale manifest is caught", () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  class Widened extends (commands[0] as any) {
    static paths = commands[0]!.paths;
    extra = Option.Boolean("--brand-new-option", false);
  }
  Object.defineProperty(Widened, "name", { value: (commands[0] as { name: string }).name });
  const widened = renderManifest([Widened as unknown as CommandClass<any>, ...commands.slice(1)]);
  expect(widened).not.toBe(renderManifest());
  expect(widened).toContain("--brand-new-option");
});

test("a class the registry lists without an import line of its own is refused with its name", () => {
  class Stray extends Command {
    static paths = [["stray"]];
    async execute() {
      return 0;
    }
  }
  expect(() => renderManifest([...commands, Stray])).toThrow(/lists Stray but imports it/);
});
