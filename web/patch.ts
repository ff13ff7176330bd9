// A unified diff as lines a person reads: each line classed by kind, and
// each content line placed in its file (the new file's line number, or the
// old file's for a removed line), so a comment can quote `file:line`. Hunk
// headers say how many lines follow, so a content line that happens to
// start with `+++` or `diff` is still content.
export type LineKind = "file" | "meta" | "hunk" | "add" | "del" | "ctx" | "note";

export interface PatchLine {
  text: string;
  kind: LineKind;
  /** The file the line belongs to (content lines and file headers). */
  path?: string;
  /** Line number in the new file (added and context lines). */
  line?: number;
  /** Line number in the old file (removed lines). */
  oldLine?: number;
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

export function parsePatch(patch: string): PatchLine[] {
  const out: PatchLine[] = [];
  let path = "";
  let oldLeft = 0;
  let newLeft = 0;
  let oldNo = 0;
  let newNo = 0;
  for (const text of patch.replace(/\n$/, "").split("\n")) {
    if (oldLeft > 0 || newLeft > 0) {
      const c = text[0];
      if (c === "+" && newLeft > 0) {
        out.push({ text, kind: "add", path, line: newNo++ });
        newLeft--;
        continue;
      }
      if (c === "-" && oldLeft > 0) {
        out.push({ text, kind: "del", path, oldLine: oldNo++ });
        oldLeft--;
        continue;
      }
      if ((c === " " || text === "") && oldLeft > 0 && newLeft > 0) {
        out.push({ text, kind: "ctx", path, line: newNo++ });
        oldNo++;
        oldLeft--;
        newLeft--;
        continue;
      }
    }
    if (text.startsWith("\\")) {
      out.push({ text, kind: "note", path });
      continue;
    }
    const hunk = HUNK.exec(text);
    if (hunk) {
      oldNo = Number(hunk[1]);
      oldLeft = hunk[2] === undefined ? 1 : Number(hunk[2]);
      newNo = Number(hunk[3]);
      newLeft = hunk[4] === undefined ? 1 : Number(hunk[4]);
      out.push({ text, kind: "hunk", path });
      continue;
    }
    oldLeft = newLeft = 0;
    if (text.startsWith("diff --git ")) {
      path = / b\/(.*)$/.exec(text)?.[1] ?? path;
      out.push({ text, kind: "file", path });
      continue;
    }
    const target = /^\+\+\+ b\/(.*)$/.exec(text);
    if (target) path = target[1]!;
    out.push({ text, kind: "meta", path });
  }
  return out;
}

/** The message a comment on a line sends: where (file:line), the line quoted, then the comment. */
export function commentMessage(line: PatchLine, comment: string): string {
  const where = line.kind === "del" ? `${line.path}:${line.oldLine} (a removed line)` : `${line.path}:${line.line}`;
  return `${where}\n> ${line.text.slice(1)}\n${comment.trim()}`;
}
