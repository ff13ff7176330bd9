// `make bench-check` (run by `make test`): the start-up budgets of issue 22
// with room for a busy machine. Each figure is a ratio to a yardstick measured
// in the same interleaved rounds, and it fails only past twice its budget: a
// clear regression (a heavy import on the start path, a verb loading every
// command again), never the noise of a shared machine.
import { startupFigures } from "./startup";

async function main(): Promise<void> {
  const figures = await startupFigures({ runs: 7, live: true });
  let failed = 0;
  for (const f of figures) {
    const ok = f.ratio <= f.limit;
    if (!ok) failed++;
    process.stdout.write(`${ok ? "ok  " : "FAIL"} ${f.what}: ${f.ratioText} (budget ${f.budget.toFixed(2)}, fails past ${f.limit.toFixed(2)})${f.note ? `; ${f.note}` : ""}\n`);
  }
  const live = figures.find((f) => f.what.startsWith("live"));
  if (live && !live.note?.startsWith("200 of 200")) {
    failed++;
    process.stdout.write(`FAIL live: not every screen right (${live.note})\n`);
  }
  if (failed > 0) {
    process.stdout.write(`${failed} start-up budget(s) clearly exceeded (bench/README.md: how to find what the start loads)\n`);
    process.exit(1);
  }
}

void main();
