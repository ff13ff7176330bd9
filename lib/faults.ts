// Fault injection for the crash proofs (DESIGN.md §10). A test names a step in
// SPEX_TEST_CRASH_AT and the process SIGKILLs itself there, or in
// SPEX_TEST_STOP_AT and it SIGSTOPs itself there: the test changes the world
// while the process is frozen (another actor taking a name), then sends
// SIGCONT. Either is deterministic where racing a kill against timing is not.
// Outside tests both are unset: one environment read per step.

export function faultPoint(step: string): void {
  if (process.env.SPEX_TEST_CRASH_AT === step) process.kill(process.pid, "SIGKILL");
  if (process.env.SPEX_TEST_STOP_AT === step) process.kill(process.pid, "SIGSTOP");
}

/** The environment for a helper process: a fault meant for the process under test must not leak into it. */
export function withoutFaults(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out = { ...env };
  delete out.SPEX_TEST_CRASH_AT;
  delete out.SPEX_TEST_STOP_AT;
  return out;
}
