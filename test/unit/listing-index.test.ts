// lib/store/listing-index.ts: what a listing of listing/ is taken to say. A
// name is trusted only from exactly one name entry that decodes; a flag only
// for a session that has a name entry; nothing is read from what is no entry.
import { expect, test } from "bun:test";
import { nameEntry, previewEntry, readListingEntries, readNameEntries, sideFileAbsent, sideFileEntry } from "../../lib/store/listing-index";

const A = "a0000000-0000-4000-8000-000000000001";
const B = "b0000000-0000-4000-8000-000000000002";
const C = "c0000000-0000-4000-8000-000000000003";

test("names round-trip through their entries, whatever they hold; one too long or not encodable reads as 'read the record'", () => {
  for (const name of ["", "auth fixer", "50% done/almost", "日本語", "a.b~c+d", "%%", "tab\tand\nline", "🎉".repeat(18)]) {
    expect(readNameEntries([nameEntry(A, name)]).get(A)).toBe(name);
  }
  expect(readNameEntries([nameEntry(A, "x".repeat(219))]).get(A)).toBeNull();
  expect(readNameEntries([nameEntry(A, "half \ud800")]).get(A)).toBeNull();
  expect(nameEntry(A, "x".repeat(218))).toHaveLength(255);
});

test("names that differ only in case never share an entry, even where the file system folds case (macOS)", () => {
  const names = ["Auth", "auth", "AUTH", "Ünïcode Ä", "ünïcode ä", "%4A", "J", "j"];
  const entries = names.map((n) => nameEntry(A, n));
  expect(new Set(entries.map((e) => e.toLowerCase())).size).toBe(names.length);
  for (const [i, e] of entries.entries()) expect(readNameEntries([e]).get(A)).toBe(names[i]!);
  // Outside the escapes an entry has no upper-case letter.
  for (const e of entries) expect(e.slice(37).replace(/%[0-9A-F]{2}/g, "")).not.toMatch(/[A-Z]/);
});

test("two name entries for one session (a rename under way) vouch for nothing; other kinds of entry and temp files are no names", () => {
  const files = [nameEntry(A, "old"), nameEntry(A, "new"), nameEntry(B, "b"), previewEntry(C, "a preview")!, sideFileEntry(C, "usage.json"), `.${nameEntry(C, "tmp")}.spex-1-ab.tmp`, "short", `${C}-nomark`];
  const names = readNameEntries(files);
  expect(names.get(A)).toBeNull();
  expect(names.get(B)).toBe("b");
  expect(names.has(C)).toBe(false);
  expect(readListingEntries(files).get(A)?.name).toBeNull();
});

test("a side file is vouched absent only for a session with a name entry and no flag for it", () => {
  const listed = readListingEntries([nameEntry(A, "a"), sideFileEntry(A, "usage.json"), previewEntry(B, "only a preview")!, sideFileEntry(C, "merged.json")]);
  expect(sideFileAbsent(listed.get(A), "usage.json")).toBe(false);
  expect(sideFileAbsent(listed.get(A), "merged.json")).toBe(true);
  // No name entry: its flags may be incomplete (a store from before the index), so every lookup is made.
  expect(sideFileAbsent(listed.get(B), "usage.json")).toBe(false);
  expect(sideFileAbsent(listed.get(C), "usage.json")).toBe(false);
  expect(sideFileAbsent(undefined, "usage.json")).toBe(false);
  expect(listed.get(B)?.preview).toBe("only a preview");
});

test("a preview no file name can hold gets no entry (the row reads the prompt)", () => {
  expect(previewEntry(A, "é".repeat(40))).toBeUndefined();
  expect(previewEntry(A, "plain words")).toBe(`${A}~plain%20words`);
});
