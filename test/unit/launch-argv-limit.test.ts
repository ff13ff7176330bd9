import { describe, expect, test } from "bun:test";
import { type ArgvFacts, promptOperandLimit } from "../../lib/launch/argv-limit";

const linux: ArgvFacts = { platform: "linux", argMax: 2 * 1024 * 1024, pageSize: 4096, envBytes: 2000, envCount: 30, words: ["claude", "--session-id", "x".repeat(36)] };

describe("the prompt operand limit", () => {
  test("on Linux with a small environment one argument's cap (32 pages less its NUL) binds", () => {
    expect(promptOperandLimit(linux)).toBe(131071);
    expect(promptOperandLimit({ ...linux, pageSize: 65536, argMax: 8 * 1024 * 1024 })).toBe(32 * 65536 - 1);
  });

  test("a large environment or a small stack makes argv + environment bind instead", () => {
    const crowded = promptOperandLimit({ ...linux, envBytes: 1990 * 1024, envCount: 5000 });
    expect(crowded).toBeLessThan(2 * 1024 * 1024 - 1990 * 1024);
    expect(crowded).toBeGreaterThan(0);
    expect(promptOperandLimit({ ...linux, argMax: 128 * 1024 })).toBeLessThan(131071);
  });

  test("macOS has no per-argument cap: ARG_MAX less everything else", () => {
    const mac = promptOperandLimit({ ...linux, platform: "darwin", argMax: 1024 * 1024 });
    expect(mac).toBeGreaterThan(1000 * 1024);
    expect(mac).toBeLessThan(1024 * 1024 - 2000);
  });

  test("an environment that leaves nothing gives 0, never a negative limit", () => {
    expect(promptOperandLimit({ ...linux, envBytes: 4 * 1024 * 1024 })).toBe(0);
  });
});
