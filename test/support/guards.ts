// The lock guards a test pass races: the abstract socket (Linux only) and
// flock. A pass that forces flock (make test-portable) races that one only;
// the socket already ran in the default pass.
export const GUARDS: readonly ("socket" | "flock")[] =
  process.env.SPEX_LOCK_GUARD === "flock" || process.platform !== "linux" ? ["flock"] : ["socket", "flock"];
