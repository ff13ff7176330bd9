// What a machine's errors print for a person to paste. `spex machine add`
// takes any destination without blanks (ssh config aliases are free-form), so
// one can hold shell syntax: the printed command must hand it to ssh and spex
// as one word, never run it.
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CommandClass } from "clipanion";
import { shapeOf } from "../../lib/cli/shape";
import { type Machine, type MachineKind, type RemoteSpec, planForward, requireDestination } from "../../lib/machines";
import { unreachable } from "../../lib/machines/ssh";
import { SessionShowCommand } from "../../cmd/session/show";
import { wordsIn } from "../support/shell-words";

const dir = mkdtempSync(join(tmpdir(), "spex-printed-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
/** Made only if a pasted line ran the command substitution inside the destination. */
const ran = join(dir, "ran");
const destination = requireDestination(`nohost.invalid$(touch\${IFS}${ran})`);
const machine: Machine = { name: "gpu", destination, port: 2222, repo: "", addedAt: "" };

/** The command quoted between backticks in a hint. */
const quoted = (hint: string | undefined) => /`([^`]+)`/.exec(hint ?? "")?.[1] ?? "";

test("an unreachable machine's hint names its destination as one word for ssh", () => {
  const line = quoted(unreachable(machine, "Connection refused").hint);
  expect(wordsIn("sh", line)).toEqual(["ssh", "-p", "2222", destination, "true"]);
  expect(existsSync(ran)).toBe(false);
});

test("a machine without a repository: the hint's re-add keeps its destination one word", () => {
  const spec = (SessionShowCommand as unknown as { remote: RemoteSpec }).remote;
  let hint = "";
  try {
    planForward({ shape: shapeOf(SessionShowCommand as CommandClass<any>), path: ["session", "show"], rest: ["gpu:a"], spec, machineOption: undefined, repoOption: undefined, classify: (n): MachineKind => (n === "gpu" ? { kind: "remote", machine } : { kind: "unknown" }) });
  } catch (e) {
    hint = (e as { code: string; hint: string }).code === "machine_repo_missing" ? (e as { hint: string }).hint : "";
  }
  const [, remove, add] = /one: (.*), then (.*) --repo PATH$/.exec(hint) ?? [];
  expect(wordsIn("sh", remove ?? "")).toEqual(["spex", "machine", "rm", "gpu"]);
  expect(wordsIn("sh", add ?? "")).toEqual(["spex", "machine", "add", "gpu", destination]);
  expect(existsSync(ran)).toBe(false);
});
