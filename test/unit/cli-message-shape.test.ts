// Issue 28.7: an error line is `spex: <what happened>; <what to do> [code]`, so
// what happened never names the program again (`spex: spex session merge
// needs <SEL>`). Checked over every documented verb of the registry, for each
// way an argv can miss: too few arguments, too many, a missing verb.
import { describe, expect, test } from "bun:test";
import { commands } from "../../cmd/registry";
import { shapeOf } from "../../lib/cli/shape";
import { maxPositionals } from "../../lib/cli/shape";
import { runInProcess } from "../support/in-process";

const shapes = commands.map(shapeOf).filter((s) => !s.hidden);
const stutters = (stderr: string) => /^spex: `?spex\b/.test(stderr);

describe("no error line says spex twice", () => {
  test("a verb missing its arguments: `spex: session merge needs <SEL>`", async () => {
    const r = await runInProcess(["session", "merge"]);
    expect(r.stderr).toBe("spex: session merge needs <SEL>; see `spex session merge --help` [usage]\n");
  });

  test("every verb with a required argument, called without it", async () => {
    for (const s of shapes.filter((x) => x.positionals.some((p) => p.required))) {
      const r = await runInProcess([...s.paths[0]!]);
      // A verb that is also a namespace (`session watch`) lists its verbs instead.
      if (r.code === 0 && r.stderr === "") continue;
      expect({ verb: s.paths[0]!.join(" "), code: r.code, stutters: stutters(r.stderr) }).toEqual({ verb: s.paths[0]!.join(" "), code: 2, stutters: false });
    }
  });

  test("every verb given more arguments than it takes", async () => {
    for (const s of shapes.filter((x) => Number.isFinite(maxPositionals(x)))) {
      const extra = Array.from({ length: maxPositionals(s) + 2 }, (_, i) => `word${i}`);
      const r = await runInProcess([...s.paths[0]!, ...extra]);
      expect({ verb: s.paths[0]!.join(" "), stutters: stutters(r.stderr), usage: r.stderr.includes("[usage]") }).toEqual({ verb: s.paths[0]!.join(" "), stutters: false, usage: true });
    }
  });

  test("options without a verb", async () => {
    const r = await runInProcess(["--json"]);
    expect(r.stderr).toMatch(/^spex: /);
    expect(stutters(r.stderr)).toBe(false);
  });
});

describe("-m has one meaning: --message", () => {
  const visible = (path: string[]) => shapes.find((s) => s.paths.some((p) => p.join(" ") === path.join(" ")))!.options.filter((o) => !o.hidden).flatMap((o) => o.names);

  test("merge takes -m for --message; live and bulk spell --machine out", () => {
    expect(visible(["session", "merge"])).toEqual(expect.arrayContaining(["--message", "-m"]));
    for (const verb of [["session", "live"], ["session", "bulk"]]) {
      expect(visible(verb)).toContain("--machine");
      expect(visible(verb)).not.toContain("-m");
    }
  });

  test("an old script's `live -m NAME` still filters by machine, with a warning saying what to write", async () => {
    const env = { SPEX_TMUX_SERVERS: `spex-none-${process.pid}`, SPEX_MACHINE: "box7" };
    const r = await runInProcess(["session", "live", "-m", "BOX7", "--json"], env);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
    expect(r.stderr).toBe("spex: warning: -m is short for --message (spex session merge, as in git), no longer for --machine; write --machine here\n");
  });
});
