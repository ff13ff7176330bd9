// `make bench`: run every bench/*.bench.ts in turn and let each print its figures.
// A bench file exports a default async function (or `run`); an optional argument
// filters files by name: `bun run bench/run.ts foundation`.
import { readdirSync } from "node:fs";
import { join } from "node:path";

type BenchModule = { default?: () => unknown; run?: () => unknown };

async function main(): Promise<void> {
  const filter = process.argv[2] ?? "";
  const files = readdirSync(__dirname)
    .filter((f) => f.endsWith(".bench.ts") && f.includes(filter))
    .sort();
  if (files.length === 0) {
    process.stdout.write(`no bench files${filter ? ` matching "${filter}"` : ""}\n`);
    return;
  }
  let failed = 0;
  for (const file of files) {
    process.stdout.write(`\n== ${file} ==\n`);
    const started = Date.now();
    try {
      const mod = (await import(join(__dirname, file))) as BenchModule;
      const entry = mod.default ?? mod.run;
      if (typeof entry === "function") await entry();
    } catch (e) {
      failed++;
      process.stdout.write(`${file} failed: ${(e as Error).stack ?? e}\n`);
    }
    process.stdout.write(`(${file}: ${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
  }
  if (failed > 0) process.exitCode = 1;
}

main();
