// JavaScriptCore's tier-up thresholds are multiplied by this in every compiled
// binary until cmd/main.ts resets them (bench/README.md "Compiled for a short
// run"); bench/yardsticks.ts builds its floor binaries the same way.
export const JIT_POLICY_AT_START = 1000;
