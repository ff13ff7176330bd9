import { describe, expect, test } from "bun:test";
import { gitOldEnough, parseGitVersion } from "../../lib/git/version";

describe("git version", () => {
  test("reads git's version line as each platform prints it", () => {
    expect(parseGitVersion("git version 2.34.1\n")).toMatchObject({ major: 2, minor: 34, text: "git version 2.34.1" });
    expect(parseGitVersion("git version 2.39.3 (Apple Git-145)")).toMatchObject({ major: 2, minor: 39 });
    expect(parseGitVersion("git version 2.40.0.windows.1")).toMatchObject({ major: 2, minor: 40 });
    expect(parseGitVersion("hub version 2.14.2")).toBeUndefined();
  });

  test("2.38 and later are new enough; 2.37, 2.30 and 1.x are not", () => {
    const at = (major: number, minor: number) => gitOldEnough({ major, minor, text: "" });
    expect([at(2, 38), at(2, 50), at(3, 0)]).toEqual([true, true, true]);
    expect([at(2, 37), at(2, 30), at(1, 99)]).toEqual([false, false, false]);
  });
});
