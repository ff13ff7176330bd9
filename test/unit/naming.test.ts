// Names that are the session's own (DESIGN.md §1.8) and the prompt seam (§1.7).
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { findMentions, labelOf, nodeOf, previewOf, promptSeam, shortId, slugOf, slugify, stripIdentityTokens, titleOf } from "../../lib/naming";

const UUID = "3f2a9c1e-8b7d-4e6f-a5b4-c3d2e1f0a9b8";

describe("mentions and node", () => {
  test("finds @actors and [[topics]]", () => {
    expect(findMentions("ask @reviewer about [[auth-flow]] and [[cache]], cc @ops.team")).toEqual({
      actors: ["reviewer", "ops.team"],
      topics: ["auth-flow", "cache"],
    });
  });

  test("an email address is not an actor mention", () => {
    expect(findMentions("mail me at dev@example.com").actors).toEqual([]);
  });

  test("the node is the first [[id]] mention and nothing else", () => {
    expect(nodeOf("fix [[login]] then [[logout]]")).toBe("login");
    expect(nodeOf("fix the login page, see @login")).toBe("");
    expect(nodeOf("no topic here")).toBe("");
  });
});

describe("title and slug", () => {
  test("title and slug strip actor mentions and UUID-shaped tokens first; the slug strips topic mentions too", () => {
    const prompt = `@cleaner remove session ${UUID} left by [[old-node]]`;
    expect(stripIdentityTokens(prompt)).not.toContain(UUID);
    expect(titleOf(prompt)).toBe("remove session left by old-node");
    expect(titleOf(prompt)).not.toContain("cleaner");
    expect(slugify(stripIdentityTokens(prompt))).toBe("remove-session-left-by");
    expect(slugOf(prompt)).toBe("old-node");
  });

  test("the title keeps the words of [[mentions]]; only the node comes from the first one", () => {
    const prompt = "add rate limiting to the [[api]]";
    expect(titleOf(prompt)).toBe("add rate limiting to the api");
    expect(nodeOf(prompt)).toBe("api");
    expect(slugOf(prompt)).toBe("api");
    expect(titleOf("move [[Billing API]] onto [[queue]], then ping @ops")).toBe("move Billing API onto queue, then ping");
    expect(nodeOf("move [[Billing API]] onto [[queue]]")).toBe("Billing API");
    // A mention of a session id is still never this session's name.
    expect(titleOf(`clean up [[${UUID}]]`)).toBe("clean up");
    expect(titleOf("@alice [[ ]]")).toBe("");
  });

  test("slugs keep their rules: a mention that yields no node adds nothing to the slug", () => {
    expect(slugOf("[[???]] fix it")).toBe("fix-it");
    expect(slugOf("fix [[ ]] the bug")).toBe("fix-the-bug");
  });

  test("the slug keeps unicode letters and digits, so a CJK prompt stays readable", () => {
    expect(slugOf("修复登录页面的错误")).toBe("修复登录页面的错误");
    expect(slugOf("Ünïcödé Straße 2 fix!")).toBe("ünïcödé-straße-2-fix");
    expect(slugOf("ログイン 画面 を 直す")).toBe("ログイン-画面-を-直す");
  });

  test("the slug comes from the node when the prompt names one", () => {
    expect(slugOf("work on [[Billing API]] retries")).toBe("billing-api");
  });

  test("a prompt with nothing sluggable falls back to `session`", () => {
    expect(slugOf("")).toBe("session");
    expect(slugOf("!!! ??? ---")).toBe("session");
    expect(slugOf(`@someone ${UUID} [[]]`)).toBe("session");
  });

  test("slugs are bounded and made of lowercase letters, digits and single dashes (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 200 }), (prompt) => {
        const slug = slugOf(prompt);
        expect([...slug].length).toBeLessThanOrEqual(40);
        expect(slug).toMatch(/^[\p{L}\p{N}]+(-[\p{L}\p{N}]+)*$/u);
        expect(slug).toBe(slug.toLowerCase());
      }),
      { numRuns: 300 },
    );
  });

  test("the title is the first non-empty line, whitespace and control characters collapsed, bounded", () => {
    expect(titleOf("\n\n  first\tline  here \u0000 x\nsecond")).toBe("first line here x");
    const long = titleOf("word ".repeat(50));
    expect([...long].length).toBe(72);
    expect(long.endsWith("…")).toBe(true);
  });

  test("the short id is the first hex digits of the id and keeps slugs unique", () => {
    expect(shortId(UUID)).toBe("3f2a");
    expect(shortId(UUID, 8)).toBe("3f2a9c1e");
  });

  test("the label is the name, else the title, else the short id", () => {
    expect(labelOf({ name: "fixer", title: "fix auth", session_id: UUID })).toBe("fixer");
    expect(labelOf({ name: "", title: "fix auth", session_id: UUID })).toBe("fix auth");
    expect(labelOf({ name: "", title: "", session_id: UUID })).toBe("3f2a9c1e");
  });
});

describe("preview and prompt seam", () => {
  test("a preview is one bounded line whatever the prompt holds (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 500 }), (prompt) => {
        const p = previewOf(prompt);
        expect(p).not.toMatch(/[\n\r\u0000]/);
        expect([...p].length).toBeLessThanOrEqual(100);
      }),
      { numRuns: 300 },
    );
  });

  test("the preview collapses whitespace and control runs and bounds code points exactly as the plain definition does (property)", () => {
    const reference = (text: string, max = 100) => {
      const line = text.replace(/[\s\u0000-\u001f\u007f]+/gu, " ").trim();
      return [...line].length > max ? [...line].slice(0, max - 1).join("") + "…" : line;
    };
    const unit = fc.oneof(
      fc.constantFrom(" ", "\t", "\n", "\r", "\u0000", "\u007f", "\u00a0", "\u2028", "\u3000", "\ufeff", "\u0085", "🎉", "日", "\ud800", "\udc00"),
      fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
    );
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 300 }), fc.integer({ min: 1, max: 120 }), (text, max) => {
        expect(previewOf(text, max)).toBe(reference(text, max));
      }),
      { numRuns: 1000 },
    );
  });

  test("text handed to an agent never begins with `-`; the rest is byte for byte (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        const seamed = promptSeam(text);
        expect(seamed.startsWith("-")).toBe(false);
        expect(seamed === text || seamed === ` ${text}`).toBe(true);
        if (text.startsWith("-")) expect(seamed).toBe(` ${text}`);
        else expect(seamed).toBe(text);
      }),
      { numRuns: 300 },
    );
    expect(promptSeam("--continue")).toBe(" --continue");
  });
});
