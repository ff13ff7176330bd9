// The board's Output must give Ink's text byte for byte, frame after frame
// (it only skips work on lines already composed): the same writes, clips and
// transforms go to both, and every frame is compared.
import { describe, expect, test } from "bun:test";
import InkOutput from "../../../node_modules/ink/build/output.js";
import FrameOutput, { type Clip } from "./frame-output";

type Transformer = (line: string, index: number) => string;
type Op = { write: [number, number, string, Transformer[]] } | { clip: Clip } | { unclip: true };

interface Sink {
  write(x: number, y: number, text: string, o: { transformers: Transformer[] }): void;
  clip(c: Clip): void;
  unclip(): void;
  get(): { output: string; height: number };
}

function frame(make: (o: { width: number; height: number }) => Sink, width: number, height: number, ops: Op[]): { output: string; height: number } {
  const out = make({ width, height });
  for (const op of ops) {
    if ("write" in op) out.write(op.write[0], op.write[1], op.write[2], { transformers: op.write[3] });
    else if ("clip" in op) out.clip(op.clip);
    else out.unclip();
  }
  return out.get();
}

const ink = (o: { width: number; height: number }) => new InkOutput(o) as unknown as Sink;
const ours = (o: { width: number; height: number }) => new FrameOutput(o);

function same(width: number, height: number, ops: Op[]): void {
  expect(frame(ours, width, height, ops)).toEqual(frame(ink, width, height, ops));
}

const SGR = ["\u001b[32m", "\u001b[39m", "\u001b[7m", "\u001b[27m", "\u001b[2m", "\u001b[22m", "\u001b[1m", "\u001b[31m", "\u001b[0m", "\u001b[38;5;208m", "\u001b[48;2;1;2;3m", "\u001b[49m"];
const WORDS = ["a", "agent", "› ", "└ ", "working", "日本語", "👍🏽", "é", "  ", "─".repeat(5), "tab\tx", "x".repeat(30)];
const upper = (line: string) => line.toUpperCase();
const numbered: Transformer = (line, i) => `${i}:${line}`;
const coloured: Transformer = (line) => `\u001b[36m${line}\u001b[39m`;

/** A small deterministic generator: the same cases every run. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function text(rnd: () => number): string {
  const lines: string[] = [];
  const count = 1 + Math.floor(rnd() * 3);
  for (let l = 0; l < count; l++) {
    let line = "";
    for (let k = Math.floor(rnd() * 6); k > 0; k--) line += rnd() < 0.4 ? SGR[Math.floor(rnd() * SGR.length)] : WORDS[Math.floor(rnd() * WORDS.length)];
    lines.push(line);
  }
  return lines.join("\n");
}

function ops(rnd: () => number, width: number, height: number): Op[] {
  const list: Op[] = [];
  let open = 0;
  for (let n = Math.floor(rnd() * 14); n > 0; n--) {
    const r = rnd();
    if (r < 0.12) {
      list.push({ clip: { x1: Math.floor(rnd() * width), x2: Math.floor(rnd() * width * 1.2), y1: rnd() < 0.3 ? undefined : Math.floor(rnd() * height), y2: Math.floor(rnd() * height * 1.2) } });
      open++;
    } else if (r < 0.18 && open > 0) {
      list.push({ unclip: true });
      open--;
    } else {
      const transformers = [upper, numbered, coloured].filter(() => rnd() < 0.2);
      list.push({ write: [Math.floor(rnd() * width * 1.1) - (rnd() < 0.05 ? 3 : 0), Math.floor(rnd() * (height + 2)) - (rnd() < 0.05 ? 2 : 0), text(rnd), transformers] });
    }
  }
  return list;
}

describe("frame output", () => {
  test("the board's kind of frame: rows with a coloured cell, the selected one inverted, a dim title, a clipped preview", () => {
    const row = (sel: boolean, i: number) => (sel ? `\u001b[7m› ${i} working\u001b[27m` : `  ${i} \u001b[32mworking\u001b[39m note`);
    const ops: Op[] = [
      { write: [0, 0, "spex board · repo · 3 working", []] },
      ...[1, 2, 3, 4].map((y): Op => ({ write: [0, y, row(y === 2, y), []] })),
      { write: [0, 5, "── 3f2a live ───", [coloured]] },
      { clip: { x1: 0, x2: 20, y1: 6, y2: 8 } },
      { write: [0, 6, "line one of the pane, longer than the clip\nline two 日本語\nline three\nline four", []] },
      { unclip: true },
      { write: [0, 9, "↑↓ move  ⏎ attach", [coloured]] },
    ];
    same(40, 10, ops);
  });

  test("frame after frame (lines reused from earlier frames), random writes, clips, transforms, wide characters and colours", () => {
    const rnd = random(23);
    const shapes: [number, number][] = [
      [20, 6],
      [40, 10],
      [7, 3],
    ];
    let last: Op[] = [];
    for (let f = 0; f < 600; f++) {
      const [width, height] = shapes[f % shapes.length]!;
      // Every other frame repeats most of the one before, as a key press does.
      const next = f % 2 === 1 ? [...last.slice(0, Math.max(0, last.length - 2)), ...ops(rnd, width, height).slice(0, 2)] : ops(rnd, width, height);
      // Unbalanced clips in a repeated prefix are fine for both: each frame starts with no clip.
      same(width, height, next);
      last = next;
    }
  });

  test("an empty frame, and text entirely outside it", () => {
    same(10, 3, []);
    same(10, 3, [{ write: [0, 5, "below", []] }, { write: [0, -1, "above\nfirst", []] }, { write: [12, 1, "right", []] }]);
  });
});
