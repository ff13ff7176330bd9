// The board's stand-in for Ink's Output (ink/build/output.js), the object Ink
// composes each frame into. Ink's own builds a grid of styled cells for the
// whole frame on every change and turns each cell back into text, comparing
// its colours with its neighbour's: at 120×40 that was ~70 % of the board's
// CPU per key press. This one takes the same writes, clips and transforms, in
// the same order, but works out what each screen line is made of (the pieces
// written on it, after clipping and transforms) and reuses that line's text
// from one of the last two frames when it is made of the same pieces; only a
// line that changed is composed cell by cell, the way Ink does it, with the
// same libraries Ink uses, so the text is byte for byte Ink's
// (lib/board/ui/frame-output.test.ts compares them). scripts/build-board.ts
// puts it in the place of Ink's module in dist/board.mjs.
import { type AnsiCode, type StyledChar, ansiCodesToString, diffAnsiCodes, styledCharsFromTokens, tokenize } from "@alcalzone/ansi-tokenize";
import sliceAnsi from "slice-ansi";
import stringWidth from "string-width";

type Transformer = (line: string, index: number) => string;

export interface Clip {
  x1?: number;
  x2?: number;
  y1?: number;
  y2?: number;
}

type Operation = { type: "write"; x: number; y: number; text: string; transformers: Transformer[] } | { type: "clip"; clip: Clip } | { type: "unclip" };

/** What was written on one screen line: its pieces, each at its column, as text with its colour sequences. */
interface Piece {
  x: number;
  line: string;
}

/**
 * Lines lately drawn, by what they were made of; the most recently used
 * last (a Map keeps its order), so the oldest go first when it is full. A few
 * frames' worth: a move and its undo (j then k), a dialog opened and closed,
 * all find their lines.
 */
const recent = new Map<string, string>();
const RECENT_FRAMES = 4;

function recall(key: string): string | undefined {
  const line = recent.get(key);
  if (line !== undefined) {
    recent.delete(key);
    recent.set(key, line);
  }
  return line;
}

function remember(key: string, line: string, room: number): void {
  recent.set(key, line);
  for (const oldest of recent.keys()) {
    if (recent.size <= room) break;
    recent.delete(oldest);
  }
}

function lineKey(width: number, pieces: Piece[]): string {
  let key = String(width);
  for (const p of pieces) key += `|${p.x},${p.line.length},${p.line}`;
  return key;
}

const widths = new Map<string, number>();
function cellsOf(text: string): number {
  let w = widths.get(text);
  if (w === undefined) {
    w = stringWidth(text);
    if (widths.size > 10_000) widths.clear();
    widths.set(text, w);
  }
  return w;
}

function sameStyles(a: AnsiCode[], b: AnsiCode[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i]!.code !== b[i]!.code || a[i]!.endCode !== b[i]!.endCode) return false;
  return true;
}

/**
 * Cells back to text as ansi-tokenize's styledCharsToString does, without
 * working out a difference between two cells styled alike (most of a line):
 * that difference is always empty.
 */
function cellsToText(cells: StyledChar[]): string {
  let text = "";
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i]!;
    if (i === 0) text += ansiCodesToString(cell.styles);
    else {
      const prev = cells[i - 1]!.styles;
      if (!sameStyles(prev, cell.styles)) text += ansiCodesToString(diffAnsiCodes(prev, cell.styles));
    }
    text += cell.value;
    if (i === cells.length - 1 && cell.styles.length > 0) text += ansiCodesToString(diffAnsiCodes(cell.styles, []));
  }
  return text;
}

/** One screen line, cell by cell, as Ink composes it. */
function composeLine(width: number, pieces: Piece[], styled: Map<string, StyledChar[]>): string {
  const cells: (StyledChar | undefined)[] = [];
  for (let x = 0; x < width; x++) cells.push({ type: "char", value: " ", fullWidth: false, styles: [] });
  for (const { x, line } of pieces) {
    let chars = styled.get(line);
    if (!chars) {
      chars = styledCharsFromTokens(tokenize(line));
      styled.set(line, chars);
    }
    let at = x;
    for (const ch of chars) {
      cells[at] = ch;
      const w = Math.max(1, cellsOf(ch.value));
      // A wide character covers the next cells: they print nothing, in its style.
      for (let k = 1; k < w; k++) cells[at + k] = { type: "char", value: "", fullWidth: false, styles: ch.styles };
      at += w;
    }
  }
  return cellsToText(cells.filter((c): c is StyledChar => c !== undefined)).trimEnd();
}

export default class Output {
  width: number;
  height: number;
  private operations: Operation[] = [];

  constructor(options: { width: number; height: number }) {
    this.width = options.width;
    this.height = options.height;
  }

  write(x: number, y: number, text: string, options: { transformers: Transformer[] }): void {
    if (!text) return;
    this.operations.push({ type: "write", x, y, text, transformers: options.transformers });
  }

  clip(clip: Clip): void {
    this.operations.push({ type: "clip", clip });
  }

  unclip(): void {
    this.operations.push({ type: "unclip" });
  }

  /** The frame's text (lines joined by \n, each with its trailing blanks cut) and its height. */
  get(): { output: string; height: number } {
    const rows: Piece[][] = [];
    for (let y = 0; y < this.height; y++) rows.push([]);
    const clips: Clip[] = [];
    for (const op of this.operations) {
      if (op.type === "clip") clips.push(op.clip);
      else if (op.type === "unclip") clips.pop();
      else this.place(op, clips.at(-1), rows);
    }
    const styled = new Map<string, StyledChar[]>();
    const room = Math.max(64, RECENT_FRAMES * this.height);
    const lines = rows.map((pieces) => {
      const key = lineKey(this.width, pieces);
      let line = recall(key);
      if (line === undefined) {
        line = composeLine(this.width, pieces, styled);
        remember(key, line, room);
      }
      return line;
    });
    return { output: lines.join("\n"), height: rows.length };
  }

  /** A write's lines onto the rows they land on, clipped and transformed exactly as Ink does. */
  private place(op: Extract<Operation, { type: "write" }>, clip: Clip | undefined, rows: Piece[][]): void {
    let { x, y } = op;
    let lines = op.text.split("\n");
    if (clip) {
      const horizontal = typeof clip.x1 === "number" && typeof clip.x2 === "number";
      const vertical = typeof clip.y1 === "number" && typeof clip.y2 === "number";
      if (horizontal) {
        const widest = Math.max(0, ...lines.map(cellsOf));
        if (x + widest < clip.x1! || x > clip.x2!) return;
      }
      if (vertical && (y + lines.length < clip.y1! || y > clip.y2!)) return;
      if (horizontal) {
        lines = lines.map((line) => {
          const from = x < clip.x1! ? clip.x1! - x : 0;
          const w = cellsOf(line);
          const to = x + w > clip.x2! ? clip.x2! - x : w;
          return sliceAnsi(line, from, to);
        });
        if (x < clip.x1!) x = clip.x1!;
      }
      if (vertical) {
        const from = y < clip.y1! ? clip.y1! - y : 0;
        const to = y + lines.length > clip.y2! ? clip.y2! - y : lines.length;
        lines = lines.slice(from, to);
        if (y < clip.y1!) y = clip.y1!;
      }
    }
    for (let i = 0; i < lines.length; i++) {
      const row = rows[y + i];
      // Ink stops at the first line outside the frame (it never advances past a missing row).
      if (!row) return;
      let line = lines[i]!;
      for (const t of op.transformers) line = t(line, i);
      row.push({ x, line });
    }
  }
}
