// The binaries the start-up figures are measured against (bench/startup.ts):
// a hello-world compiled by the same Bun, and the floors, small binaries that
// do only what no tool can skip (list the records, read the names), compiled
// the way bin/spex is.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "../test/support/sandbox";
import { JIT_POLICY_AT_START } from "../scripts/jit-policy";

const BUN = join(REPO_ROOT, "node_modules", ".bin", "bun");

/** A hello-world compiled by the Bun that compiles spex, in .bench/ (kept between runs, rebuilt when Bun changes). */
export function helloBinary(): string {
  const dir = join(REPO_ROOT, ".bench", "hello");
  mkdirSync(dir, { recursive: true });
  const version = spawnSync(BUN, ["--version"], { encoding: "utf8" }).stdout.trim();
  const out = join(dir, `hello-${version}`);
  if (!existsSync(out)) {
    writeFileSync(join(dir, "hello.ts"), 'console.log("hello");\n');
    const r = spawnSync(BUN, ["build", "--compile", join(dir, "hello.ts"), "--outfile", out], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`compiling the hello-world failed: ${r.stderr}`);
  }
  return out;
}

/**
 * A floor binary: `lines` of TypeScript compiled the way bin/spex is
 * (bytecode, the JIT held back), in .bench/ under `name` (kept between runs,
 * rebuilt when Bun or the JIT policy changes).
 */
function floorBinary(name: string, lines: string[]): string {
  const dir = join(REPO_ROOT, ".bench", "hello");
  mkdirSync(dir, { recursive: true });
  const version = spawnSync(BUN, ["--version"], { encoding: "utf8" }).stdout.trim();
  const out = join(dir, `${name}-${version}-${JIT_POLICY_AT_START}`);
  if (!existsSync(out)) {
    const source = join(dir, `${name}.ts`);
    writeFileSync(source, [...lines, ""].join("\n"));
    const r = spawnSync(BUN, ["build", "--compile", "--bytecode", "--format=esm", `--compile-jit-policy=${JIT_POLICY_AT_START}`, source, "--outfile", out], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`compiling the ${name} floor failed: ${r.stderr}`);
  }
  return out;
}

/**
 * The floor under `ls --json`: a binary that lists a sessions folder, parses
 * each session.json and prints them all as indented JSON, nothing else (no
 * validation, side files, preview or row). What listing records costs any
 * tool on this machine.
 */
export function recordsFloorBinary(): string {
  return floorBinary("records-2", [
    'import { readdirSync, readFileSync } from "node:fs";',
    "const dir = process.argv[2];",
    "const rows = [];",
    "let ids = [];",
    "try { ids = readdirSync(dir); } catch {}",
    "for (const id of ids) {",
    "  try { rows.push(JSON.parse(readFileSync(`${dir}/${id}/session.json`, \"utf8\"))); } catch {}",
    "}",
    'process.stdout.write(JSON.stringify(rows, null, 2) + "\\n");',
  ]);
}

/**
 * The floor under completing a session name: a binary that lists a sessions
 * folder, reads each session.json, takes its short id and the name's line,
 * and prints them (nothing else: no store to find, no home to check, no
 * command table). What a Tab that offers names read from 20 or 200 records
 * costs any tool built by this Bun.
 */
export function namesFloorBinary(): string {
  return floorBinary("names-1", [
    'import { readdirSync, readFileSync } from "node:fs";',
    "const dir = process.argv[2];",
    "const words = [];",
    "let ids = [];",
    "try { ids = readdirSync(dir); } catch {}",
    "for (const id of ids) {",
    "  let text;",
    "  try { text = readFileSync(`${dir}/${id}/session.json`, \"utf8\"); } catch { continue; }",
    "  words.push(id.slice(0, 8));",
    "  const at = text.indexOf('\\n  \"name\": ');",
    "  if (at >= 0) words.push(text.slice(at + 11, text.indexOf(\"\\n\", at + 11)));",
    "}",
    'console.log(words.join("\\n"));',
  ]);
}
