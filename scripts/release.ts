// Release artifacts (`make release`, checked by `make release-check`):
//   bun scripts/release.ts build '<build stamp JSON>'   standalone binaries for every target + the Node bundle,
//                                                      each with a SHA-256 sum file, in dist/release/
//   bun scripts/release.ts check                       every artifact matches its sum and `file` names the
//                                                      right OS and architecture; prints the smoke target
// Cross-compiling fetches each target's Bun runtime (@oven/bun-<os>-<arch>)
// from the npm registry once; bun caches it. A registry other than the
// default is taken from NPM_CONFIG_REGISTRY.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";

const ROOT = join(import.meta.dir, "..");
const OUT = join(ROOT, "dist", "release");
const BUN = join(ROOT, "node_modules", ".bin", "bun");

/** Each target and the words `file` prints for a binary of it. */
const TARGETS: Record<string, RegExp[]> = {
  "linux-x64": [/\bELF 64-bit\b/, /\bx86-64\b/],
  "linux-arm64": [/\bELF 64-bit\b/, /\b(ARM aarch64|aarch64)\b/],
  "darwin-x64": [/\bMach-O 64-bit\b/, /\bx86_64\b/],
  "darwin-arm64": [/\bMach-O 64-bit\b/, /\barm64\b/],
};

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): string {
  const r = spawnSync(cmd, args, { cwd: ROOT, env, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
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

function build(stamp: string): void {
  const base = JSON.parse(stamp) as Record<string, string>;
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const registry = (process.env.NPM_CONFIG_REGISTRY || process.env.npm_config_registry || "").replace(/\/+$/, "");
  const bunVersion = run(BUN, ["--version"]).trim();
  for (const target of Object.keys(TARGETS)) {
    const env = { ...process.env };
    // Bun downloads a target's runtime from registry.npmjs.org itself; a configured npm registry is
    // handed to it as that package's tarball (it reads no .npmrc for this).
    if (registry) {
      const pkg = `bun-${target.replace("arm64", "aarch64")}`;
      env.BUN_COMPILE_TARGET_TARBALL_URL = `${registry}/@oven/${pkg}/-/${pkg}-${bunVersion}.tgz`;
    }
    const outfile = join(OUT, `spex-${target}`);
    const define = JSON.stringify({ ...base, target });
    process.stdout.write(`building ${basename(outfile)}\n`);
    run(
      BUN,
      ["build", "--compile", `--target=bun-${target}`, "--no-compile-autoload-dotenv", "--no-compile-autoload-bunfig", "--define", `__SPEX_BUILD__=${define}`, "cmd/main.ts", "--outfile", outfile],
      env,
    );
    writeSum(outfile);
  }
  const bundle = join(OUT, "spex.cjs");
  copyFileSync(join(ROOT, "dist", "spex.cjs"), bundle);
  writeSum(bundle);
  process.stdout.write(`release artifacts in ${OUT}\n`);
}

function check(): void {
  const failures: string[] = [];
  for (const name of [...Object.keys(TARGETS).map((t) => `spex-${t}`), "spex.cjs"]) {
    const file = join(OUT, name);
    const [recorded, recordedName] = readFileSync(`${file}.sha256`, "utf8").trim().split(/\s+/);
    if (recorded !== sha256(file) || recordedName !== name) failures.push(`${name}: its .sha256 does not match`);
  }
  for (const [target, words] of Object.entries(TARGETS)) {
    const described = run("file", ["-b", join(OUT, `spex-${target}`)]).trim();
    process.stdout.write(`spex-${target}: ${described}\n`);
    for (const w of words) if (!w.test(described)) failures.push(`spex-${target}: \`file\` says "${described}", expected ${w}`);
  }
  if (failures.length > 0) {
    process.stderr.write(`${failures.join("\n")}\n`);
    process.exit(1);
  }
}

const [mode, arg] = process.argv.slice(2);
if (mode === "build" && arg) build(arg);
else if (mode === "check") check();
else {
  process.stderr.write("usage: bun scripts/release.ts build '<stamp JSON>' | check\n");
  process.exit(2);
}
