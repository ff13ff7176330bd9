// Reservation rules as pure values: the overlap rule, conflicts reported but
// never refused, renewal, release, TTL parsing and expiry on an injected clock.
import { describe, expect, test } from "bun:test";
import { refusal } from "../support/refusal";
import {
  type LeaseList,
  DEFAULT_LEASE_TTL_MS,
  formatExpiresIn,
  liveLeases,
  normalPattern,
  parseTtl,
  patternsOverlap,
  releaseLeases,
  reserveLeases,
} from "../../lib/coord/lease-rules";

const T0 = Date.parse("2026-11-30T00:00:00.000Z");
const empty = (): LeaseList => ({ version: 1, leases: [] });


describe("the overlap rule", () => {
  const cases: [string, string, boolean][] = [
    ["src/a.ts", "src/a.ts", true],
    ["src", "src/a.ts", true], // a plain path covers everything under it
    ["src", "srcx/a.ts", false], // …but only at a folder boundary
    ["src/a.ts", "src/b.ts", false],
    ["src/*.ts", "src/a.ts", true],
    ["src/**", "src/lib/deep/x.ts", true],
    ["src/*.ts", "src/lib/**", true], // stems src/ and src/lib/
    ["src/*.ts", "src/*.md", true], // conservative: same stem
    ["src/a", "src/ab*", false], // a plain path is not continued by "b"
    ["src/a*", "src/abc/d.ts", true],
    ["src/**", "docs/**", false],
    ["**/*.md", "README.md", true], // an empty stem overlaps everything
    ["docs/x.md", "src/**", false],
  ];
  for (const [a, b, want] of cases) {
    test(`${a} and ${b} ${want ? "overlap" : "do not overlap"}, in either order`, () => {
      expect(patternsOverlap(a, b)).toBe(want);
      expect(patternsOverlap(b, a)).toBe(want);
    });
  }

  test("patterns are repo-relative: ./ and trailing / dropped, absolute and .. refused", () => {
    expect(normalPattern("./src/")).toBe("src");
    expect(normalPattern("src//a")).toBe("src/a");
    for (const bad of ["/etc/passwd", "../x", "src/../../x", "", "."]) expect(refusal(() => normalPattern(bad)).code).toBe("pattern_invalid");
  });
});

describe("reserve", () => {
  const req = (session: string, patterns: string[], mode: "exclusive" | "shared" = "exclusive") => ({ session, patterns, mode, ttlMs: DEFAULT_LEASE_TTL_MS, note: "" });

  test("an exclusive lease held by another session is reported as a conflict, and the lease is granted anyway", () => {
    const a = reserveLeases(empty(), req("A", ["src/auth"]), T0);
    const b = reserveLeases(a.list, req("B", ["src/auth/token.ts"], "shared"), T0);
    expect(b.conflicts.map((c) => [c.session_id, c.pattern])).toEqual([["A", "src/auth"]]);
    expect(b.reserved.map((r) => r.pattern)).toEqual(["src/auth/token.ts"]);
    expect(b.list.leases.length).toBe(2);
  });

  test("two shared leases on the same path do not conflict", () => {
    const a = reserveLeases(empty(), req("A", ["docs"], "shared"), T0);
    expect(reserveLeases(a.list, req("B", ["docs/x.md"], "shared"), T0).conflicts).toEqual([]);
  });

  test("an exclusive request over another's shared lease conflicts", () => {
    const a = reserveLeases(empty(), req("A", ["docs"], "shared"), T0);
    expect(reserveLeases(a.list, req("B", ["docs/x.md"]), T0).conflicts.length).toBe(1);
  });

  test("a session's own leases never conflict with it, and reserving a pattern again renews it", () => {
    const first = reserveLeases(empty(), req("A", ["src"]), T0);
    const again = reserveLeases(first.list, { ...req("A", ["src", "src/a.ts"]), note: "still here" }, T0 + 60_000);
    expect(again.conflicts).toEqual([]);
    expect(again.list.leases.map((l) => [l.pattern, l.expiresAt, l.note])).toEqual([
      ["src", T0 + 60_000 + DEFAULT_LEASE_TTL_MS, "still here"],
      ["src/a.ts", T0 + 60_000 + DEFAULT_LEASE_TTL_MS, "still here"],
    ]);
  });

  test("release drops only the caller's leases: the named ones, or all of them", () => {
    let list = reserveLeases(empty(), req("A", ["a", "b"]), T0).list;
    list = reserveLeases(list, req("B", ["a"]), T0).list;
    const one = releaseLeases(list, "A", ["./a/"]);
    expect(one.released.map((l) => l.pattern)).toEqual(["a"]);
    expect(one.list.leases.map((l) => `${l.session_id}:${l.pattern}`)).toEqual(["A:b", "B:a"]);
    const all = releaseLeases(list, "A", undefined);
    expect(all.list.leases.map((l) => `${l.session_id}:${l.pattern}`)).toEqual(["B:a"]);
  });
});

describe("time to live", () => {
  test("durations parse in h, m and s; a bare number is minutes", () => {
    expect(parseTtl("45m")).toBe(45 * 60_000);
    expect(parseTtl("1h30m")).toBe(90 * 60_000);
    expect(parseTtl("90s")).toBe(90_000);
    expect(parseTtl("10")).toBe(10 * 60_000);
    expect(parseTtl("4h")).toBe(4 * 3600_000);
    for (const bad of ["", "0m", "abc", "5d", "-3m"]) expect(refusal(() => parseTtl(bad)).code).toBe("usage");
  });

  test("a lease longer than 4h is refused as ttl_too_long", () => {
    expect(refusal(() => parseTtl("4h1s")).code).toBe("ttl_too_long");
    expect(refusal(() => parseTtl("300m")).code).toBe("ttl_too_long");
  });

  test("a lease is gone at its expiry, and a lease of a vanished session is gone at once", () => {
    const list = reserveLeases(empty(), { session: "A", patterns: ["x"], mode: "exclusive", ttlMs: 60_000, note: "" }, T0).list;
    const all = () => true;
    expect(liveLeases(list, T0 + 59_999, all).leases.length).toBe(1);
    expect(liveLeases(list, T0 + 60_000, all).leases.length).toBe(0);
    expect(liveLeases(list, T0, (s) => s !== "A").leases.length).toBe(0);
    // An expired lease no longer conflicts with anyone.
    expect(reserveLeases(list, { session: "B", patterns: ["x"], mode: "exclusive", ttlMs: 60_000, note: "" }, T0).conflicts.length).toBe(1);
    expect(reserveLeases(liveLeases(list, T0 + 60_000, all), { session: "B", patterns: ["x"], mode: "exclusive", ttlMs: 60_000, note: "" }, T0 + 60_000).conflicts.length).toBe(0);
  });

  test("expires_in reads in the largest units, rounded up", () => {
    expect(formatExpiresIn(30 * 60_000)).toBe("30m");
    expect(formatExpiresIn(29 * 60_000 + 1)).toBe("30m");
    expect(formatExpiresIn(4 * 3600_000)).toBe("4h");
    expect(formatExpiresIn(3 * 3600_000 + 59 * 60_000)).toBe("3h59m");
    expect(formatExpiresIn(40_000)).toBe("40s");
    expect(formatExpiresIn(-5)).toBe("0s");
  });
});
