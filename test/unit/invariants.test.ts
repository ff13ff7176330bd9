// Invariants that can be checked without a sandbox (DESIGN.md §1.1, §1.7):
// no module but the record writer puts bytes into session.json, and every
// harness's launch script hands the prompt over as one operand behind the seam.
import { afterAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { HARNESS_NAMES } from "../../lib/harness";
import { acquireLock, lockHolder, withLocks } from "../../lib/lock";
import { renderLaunchScript } from "../../lib/launch/script";
import { promptSeam } from "../../lib/naming";
import { REPO_ROOT, waitFor } from "../support/sandbox";

function filesUnder(dir: string, keep: (f: string) => boolean): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      return;
    }
    for (const n of names) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (keep(p)) out.push(p);
    }
  };
  walk(join(REPO_ROOT, dir));
  return out;
}

const source = (f: string) => readFileSync(f, "utf8");
const rel = (f: string) => relative(REPO_ROOT, f);
const tsFiles = [...filesUnder("lib", (f) => f.endsWith(".ts")), ...filesUnder("cmd", (f) => f.endsWith(".ts"))].filter((f) => !rel(f).startsWith("lib/generated/"));

/** Files that call `name(` (not its definition or import). */
function callers(name: string): string[] {
  const call = new RegExp(`(?<!function\\s+)\\b${name}\\(`);
  return tsFiles.filter((f) => source(f).split("\n").some((l) => call.test(l))).map(rel).sort();
}

describe("one writer (static)", () => {
  test("only the read-modify-write under the record lock and the first write of a create call the record writer", () => {
    expect(callers("writeRecordFile")).toEqual(["lib/create/create.ts", "lib/record/update.ts"]);
  });

  test("record text is composed only inside lib/record (the fence compares serializations, it never writes one)", () => {
    expect(callers("serializeRecord").filter((f) => !f.startsWith("lib/record/"))).toEqual(["lib/launch/fence.ts"]);
    const fence = source(join(REPO_ROOT, "lib/launch/fence.ts"));
    expect(fence).not.toMatch(/write\w*\(\s*[^)]*serializeRecord/);
  });

  test("no module hands a record path to a file-writing call, except the writer itself and quarantine's whole-file moves", () => {
    const writes = /\b(writeFileSync|appendFileSync|writeFile|appendFile|createWriteStream|copyFileSync|copyFile|cpSync|renameSync|rename|truncateSync|linkSync|symlinkSync|writeFileAtomic(?:\.sync)?|writeJsonDurably|touchDurably)\(([^;]*)/g;
    const offenders: string[] = [];
    for (const f of tsFiles) {
      const r = rel(f);
      if (r === "lib/record/file.ts") continue;
      for (const [i, line] of source(f).split("\n").entries()) {
        for (const m of line.matchAll(writes)) {
          const args = m[2]!;
          if (!/\.record\b|session\.json|SPEX_RECORD/.test(args)) continue;
          if (r === "lib/teardown/quarantine.ts" && m[1] === "renameSync") continue;
          if (/restored\.json/.test(args)) continue; // quarantine's own log, which names the record path as data
          offenders.push(`${r}:${i + 1}: ${line.trim()}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  test("no shell script writes the record: no redirection into it, no in-place edit of it", () => {
    const script = (f: string) => /\.(sh|bash|zsh|fish)$/.test(f);
    const scripts = [...filesUnder("hooks", script), ...filesUnder("launch-templates", script), ...filesUnder("shell", () => true)];
    expect(scripts.length).toBeGreaterThan(0);
    const offenders: string[] = [];
    for (const f of scripts) {
      for (const [i, line] of source(f).split("\n").entries()) {
        const code = line.replace(/^\s*#.*$/, "");
        const intoRecord = />>?\s*"?\$\{?(rec|SPEX_RECORD)\b|>>?\s*\S*session\.json/.test(code);
        const inPlace = /\b(sed|perl)\b[^|]*\s-i|\bed\s|\bex\s|\btee\b[^|]*(\$\{?(rec|SPEX_RECORD)|session\.json)|\bmv\b[^|]*(\$\{?(rec|SPEX_RECORD)\}?"?\s*$|session\.json)/.test(code);
        if (intoRecord || inPlace) offenders.push(`${rel(f)}:${i + 1}: ${line.trim()}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});

describe("the prompt seam in every launch script", () => {
  const dir = mkdtempSync(join(tmpdir(), "spex-seam-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // Stands in for the agent: prints its operands NUL-separated.
  const agent = join(dir, "agent");
  writeFileSync(agent, "#!/bin/sh\nprintf '%s\\0' \"$@\"\n");
  chmodSync(agent, 0o755);

  function operands(harness: string, prompt: string | null, args: string[]): string[] {
    const script = renderLaunchScript({ harness, sessionId: "s", worktree: dir, env: { SPEX_SESSION_ID: "s" }, pidFile: join(dir, `${harness}.pid`), command: `'${agent}'`, args, prompt });
    const file = join(dir, `${harness}.sh`);
    writeFileSync(file, script);
    const r = spawnSync("/bin/sh", [file], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`${harness} launch script failed: ${r.stderr}`);
    return r.stdout.split("\0").slice(0, -1);
  }

  // Argv cannot carry NUL; everything else, dashes, quotes, newlines and trailing blanks included, must arrive as typed.
  const anyPrompt = fc.oneof(
    fc.string({ unit: "binary", maxLength: 60 }),
    fc.string({ unit: fc.constantFrom("-", " ", "'", '"', "\\", "\n", "\t", "$", "`", "(", ")", "@@PROMPT@@", "--resume", "日", "🎉"), maxLength: 12 }),
  ).filter((p) => !p.includes("\u0000"));

  for (const harness of HARNESS_NAMES) {
    test(`${harness}: the prompt arrives as the one last operand, behind the seam and otherwise byte for byte (property)`, () => {
      const args = ["--flag", "two words"];
      fc.assert(
        fc.property(anyPrompt, (prompt) => {
          expect(operands(harness, prompt, args)).toEqual([...args, promptSeam(prompt)]);
        }),
        { numRuns: 40 },
      );
      expect(operands(harness, "-rf", [])).toEqual([" -rf"]);
      expect(operands(harness, " -rf", [])).toEqual([" -rf"]);
      // Only a '-' in the very first place counts; other leading blanks and trailing blanks stay as typed.
      expect(operands(harness, "  --two\t", [])).toEqual(["  --two\t"]);
      expect(operands(harness, "\t-tab", [])).toEqual(["\t-tab"]);
      expect(operands(harness, "trailing  \n blanks \n", [])).toEqual(["trailing  \n blanks \n"]);
      expect(operands(harness, null, args)).toEqual(args);
    });
  }
});

describe("exclusion lives in the lock", () => {
  test("withLocks takes its locks in sorted order whatever order they are asked in: with the later one held, the earlier is already taken while it waits", async () => {
    const dir = mkdtempSync(join(tmpdir(), "spex-order-"));
    try {
      const [early, late] = [join(dir, "a.lock"), join(dir, "b.lock")];
      const held = await acquireLock(late, { purpose: "held first" });
      const both = withLocks([late, early], () => "ran", { purpose: "asked late first", timeoutMs: 10000 });
      try {
        await waitFor(() => lockHolder(early)?.purpose === "asked late first", "the earlier lock to be taken while the later one waits", 5000);
      } finally {
        await held.release();
      }
      expect(await both).toBe("ran");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
