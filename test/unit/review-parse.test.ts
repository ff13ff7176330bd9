// The pure parts of lib/review: reading git's raw+numstat output, the paths a
// status entry names, and cutting a patch at a line end.
import { describe, expect, test } from "bun:test";
import { cutPatch, parseRawNumstat, workPaths } from "../../lib/review";

describe("parseRawNumstat", () => {
  test("pairs each raw entry with its counts, renames and binaries included, whatever the names hold", () => {
    const raw = [
      ":100644 100644 aaa bbb M", "a\tb c.txt",
      ":000000 100644 000 ccc A", "bin.dat",
      ":100644 100644 ddd eee R087", "old\nname", "new -> name",
      ":100644 000000 fff 000 D", "gone",
    ];
    const num = ["3\t1\ta\tb c.txt", "-\t-\tbin.dat", "2\t2\t", "old\nname", "new -> name", "0\t4\tgone"];
    expect(parseRawNumstat([...raw, ...num, ""].join("\0"))).toEqual([
      { path: "a\tb c.txt", status: "modified", additions: 3, deletions: 1, binary: false },
      { path: "bin.dat", status: "added", additions: 0, deletions: 0, binary: true },
      { path: "new -> name", oldPath: "old\nname", status: "renamed", additions: 2, deletions: 2, binary: false },
      { path: "gone", status: "deleted", additions: 0, deletions: 4, binary: false },
    ]);
  });

  test("no changes is no files", () => {
    expect(parseRawNumstat("")).toEqual([]);
  });
});

describe("workPaths", () => {
  test("skips ignored entries, names both sides of a rename, and a folder once", () => {
    expect(workPaths([
      { status: " M", path: "a.txt" },
      { status: "!!", path: "build/" },
      { status: "R ", path: "old.txt -> new.txt" },
      { status: "??", path: "dir/" },
      { status: " M", path: "a.txt" },
    ])).toEqual(["a.txt", "old.txt", "new.txt", "dir"]);
  });
});

describe("cutPatch", () => {
  test("keeps whole lines under the limit and says it cut", () => {
    expect(cutPatch("one\ntwo\nthree\n", 9)).toEqual({ patch: "one\ntwo\n", truncated: true });
    expect(cutPatch("one\n", 100)).toEqual({ patch: "one\n", truncated: false });
  });
});
