// Release artifacts (`make release`, checked by `make release-check`):
//   bun scripts/release.ts build '<stamp JSON>'   a standalone binary for every target
//        (compiled as bin/spex is, scripts/compile.ts) + the Node bundle and the MCP SDK module beside
//        it, each with a SHA-256 sum file, in dist/release/
//   bun scripts/release.ts check    every artifact matches its sum, `file` names each binary's OS and
//        architecture, and each binary carries the MCP SDK module
// A target other than this machine's needs that target's Bun runtime (the npm
// package @oven/bun-<os>-<arch>, the version of the bun doing the build). It
// comes through the npm client (`npm pack`: the configured registry, proxy
// and npm's cache), never from bun's own downloader, and is kept in
// dist/runtimes/.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { compile } from "./compile";

const ROOT = join(import.meta.dir, "..");
const OUT = join(ROOT, "dist", "release");
const RUNTIMES = join(ROOT, "dist", "runtimes");
const BUN = join(ROOT, "node_modules", ".bin", "bun");
const HOST = `${process.platform}-${process.arch}`;

/** Each target and the words `file` prints for a binary of it. */
const TARGETS: Record<string, RegExp[]> = {
  "linux-x64": [/\bELF 64-bit\b/, /\bx86-64\b/],
  "linux-arm64": [/\bELF 64-bit\b/, /\b(ARM aarch64|aarch64)\b/],
  "darwin-x64": [/\bMach-O 64-bit\b/, /\bx86_64\b/],
  "darwin-arm64": [/\bMach-O 64-bit\b/, /\barm64\b/],
};
/** Where a compiled binary keeps its second entry point, dist/mcp-sdk.mjs (lib/mcp/sdk-load.ts looks there). */
const EMBEDDED_SDK = "/$bunfs/root/dist/mcp-sdk.js";
/** The board's screen, dist/board.mjs, a third entry point (lib/board/load.ts looks there). */
const EMBEDDED_BOARD = "/$bunfs/root/dist/board.js";
const BESIDE_BUNDLE = ["spex.cjs", "spex-main.cjs", "mcp-sdk.mjs", "board.mjs"];

function run(cmd: string, args: string[]): string {
  const r = spawnSync(cmd, args, { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 1 << 26 });
  if (r.error) throw new Error(`${cmd} could not be run: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} exited ${r.status}`);
  return r.stdout;
}

function sha256(file: string): string {
  return createHash("sha256").update(readFileSync(file)).digest("hex");
}

/** `<hex>  <name>`: what `sha256sum -c` and `shasum -a 256 -c` read. */
function writeSum(file: string): void {
  writeFileSync(`${file}.sha256`, `${sha256(file)}  ${basename(file)}\n`);
}

/** The Bun runtime a cross-compiled binary is built on; undefined for this machine's target (bun uses itself). */
function runtimeFor(target: string, bunVersion: string): string | undefined {
  if (target === HOST) return undefined;
  const name = `bun-${target.replace("arm64", "aarch64")}`;
  const dir = join(RUNTIMES, `${name}-${bunVersion}`);
  const exe = join(dir, "package", "bin", "bun");
  if (existsSync(exe)) return exe;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  process.stdout.write(`fetching @oven/${name}@${bunVersion} with npm\n`);
  const packed = JSON.parse(run("npm", ["pack", `@oven/${name}@${bunVersion}`, "--prefer-offline", "--json", "--pack-destination", dir])) as { filename: string }[];
  const tarball = join(dir, packed[0]!.filename);
  run("tar", ["-xzf", tarball, "-C", dir, "package/bin/bun"]);
  rmSync(tarball);
  return exe;
}

async function build(stamp: string): Promise<void> {
  const base = JSON.parse(stamp) as Record<string, string>;
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const bunVersion = run(BUN, ["--version"]).trim();
  for (const target of Object.keys(TARGETS)) {
    const runtime = runtimeFor(target, bunVersion);
    const outfile = join(OUT, `spex-${target}`);
    const define = JSON.stringify({ ...base, target });
    process.stdout.write(`building ${basename(outfile)}\n`);
    await compile(outfile, define, target, runtime);
    writeSum(outfile);
  }
  for (const name of BESIDE_BUNDLE) {
    copyFileSync(join(ROOT, "dist", name), join(OUT, name));
    writeSum(join(OUT, name));
  }
  process.stdout.write(`release artifacts in ${OUT}\n`);
}

function check(): void {
  const failures: string[] = [];
  for (const name of [...Object.keys(TARGETS).map((t) => `spex-${t}`), ...BESIDE_BUNDLE]) {
    const file = join(OUT, name);
    const [recorded, recordedName] = readFileSync(`${file}.sha256`, "utf8").trim().split(/\s+/);
    if (recorded !== sha256(file) || recordedName !== name) failures.push(`${name}: its .sha256 does not match`);
  }
  for (const [target, words] of Object.entries(TARGETS)) {
    const file = join(OUT, `spex-${target}`);
    const described = run("file", ["-b", file]).trim();
    process.stdout.write(`spex-${target}: ${described}\n`);
    for (const w of words) if (!w.test(described)) failures.push(`spex-${target}: \`file\` says "${described}", expected ${w}`);
    const bytes = readFileSync(file);
    if (!bytes.includes(EMBEDDED_SDK)) failures.push(`spex-${target}: carries no ${EMBEDDED_SDK}, so \`spex mcp\` cannot start`);
    if (!bytes.includes(EMBEDDED_BOARD)) failures.push(`spex-${target}: carries no ${EMBEDDED_BOARD}, so \`spex board\` cannot start`);
  }
  if (failures.length > 0) {
    process.stderr.write(`${failures.join("\n")}\n`);
    process.exit(1);
  }
}

const [mode, stamp] = process.argv.slice(2);
if (mode === "build" && stamp) await build(stamp);
else if (mode === "check") check();
else {
  process.stderr.write("usage: bun scripts/release.ts build '<stamp JSON>' | check\n");
  process.exit(2);
}
