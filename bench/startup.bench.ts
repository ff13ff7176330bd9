// `make bench`: every start-up figure of issue 22 against its yardstick,
// measured in this run (bench/startup.ts says which). bench/README.md has
// where the start goes and the figures before and after.
import { ms, table } from "./support";
import { startupFigures } from "./startup";

const RUNS = 15;

export default async function run(): Promise<void> {
  const figures = await startupFigures({ runs: RUNS, live: true });
  process.stdout.write(
    table(
      ["what", "median", "yardstick", "its median", "figure", "budget", ""],
      figures.map((f) => [f.what, ms(f.value), f.yardstickName, ms(f.yardstick), f.ratioText, f.what.startsWith("ls") ? "+15 ms (0.39 hello)" : f.what.startsWith("live") ? "start + 1.5 ×" : `${f.budget} ×`, [f.ratio <= f.budget ? "within" : "over", f.note].filter(Boolean).join("; ")]),
    ) + `medians of ${RUNS} interleaved runs\n`,
  );
}

if (require.main === module) void run();
