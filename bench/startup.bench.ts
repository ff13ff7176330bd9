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
      ["what", "median", "yardstick", "its median", "figure", "budget", "in CPU time", ""],
      figures.map((f) => [f.what, ms(f.value.wall), f.yardstickName, ms(f.yardstick.wall), f.ratioText, f.budgetText, f.cpuText, [f.ratio <= f.budget ? "within" : "over", f.broken, f.note].filter(Boolean).join("; ")]),
    ) + `medians of ${RUNS} interleaved runs (wall time; CPU time of the process itself beside it)\n`,
  );
}

if (require.main === module) void run();
