// The release binary a user downloads, run as they would (make release-check
// points SPEX_TEST_BIN at dist/release/spex-<this machine's target>): it names
// its target, creates a session and lists it, with no checkout beside it.
import { afterEach, describe, expect, test } from "bun:test";
import { type Sandbox, SPEX_BIN, sandbox } from "../support/sandbox";

let sb: Sandbox | undefined;
afterEach(() => sb?.cleanup());

const TARGET = process.env.SPEX_RELEASE_TARGET || `${process.platform}-${process.arch}`;

describe(`release binary (${SPEX_BIN})`, () => {
  test(`--version names the target ${TARGET}, and version --json agrees`, () => {
    sb = sandbox();
    const line = sb.spex(["--version"]);
    expect(line.code).toBe(0);
    expect(line.stdout).toMatch(new RegExp(`^spex \\d+\\.\\d+\\.\\d+ \\(commit \\S+, built \\S+, for ${TARGET}\\)\\n$`));
    expect(JSON.parse(sb.spex(["version", "--json"]).stdout).target).toBe(TARGET);
  });

  test("session new --no-launch makes a session that ls --json lists", () => {
    sb = sandbox();
    const made = sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "--json", "smoke test of a release"]);
    expect(made.stderr).toBe("");
    expect(made.code).toBe(0);
    const id = JSON.parse(made.stdout).session_id as string;
    const rows = JSON.parse(sb.spex(["session", "ls", "--json"]).stdout) as { id: string; kind: string }[];
    expect(rows.map((r) => [r.id, r.kind])).toEqual([[id, "ok"]]);
  });
});
