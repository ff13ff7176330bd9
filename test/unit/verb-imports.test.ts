// What a verb loads before it runs: the modules its command file reaches by
// static imports (a dynamic import, or a require inside a function, loads when
// it is reached, not at start). Listing sessions is the verb people run most
// and the board, the dashboard and MCP call its code: it must not load the
// machinery for launching, git, the harness adapters or child processes,
// which a listing needs only when a queued session is waiting or a create was
// abandoned. A static import of any of them would bring back ~18 ms of start
// (bench: `ls --json` with no sessions 77 → 59 ms wall when they went lazy).
// The agent hook's slow path is held to the same.
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = join(__dirname, "..", "..");
const transpilers = { ts: new Bun.Transpiler({ loader: "ts" }), tsx: new Bun.Transpiler({ loader: "tsx" }) };

function resolveImport(from: string, spec: string): string {
  if (!spec.startsWith(".")) return spec;
  const base = resolve(dirname(from), spec);
  for (const candidate of [`${base}.ts`, `${base}.tsx`, join(base, "index.ts")]) if (existsSync(candidate)) return candidate;
  return base;
}

/** Every module reached from `entry` by static imports, each with the chain that reached it. */
function loadedAtStart(entry: string): Map<string, string[]> {
  const reached = new Map<string, string[]>();
  const queue: [string, string[]][] = [[join(ROOT, entry), []]];
  while (queue.length > 0) {
    const [file, chain] = queue.shift()!;
    if (reached.has(file)) continue;
    const path = [...chain, file.startsWith(ROOT) ? relative(ROOT, file) : file];
    reached.set(file, path);
    if (!file.startsWith("/") || !existsSync(file)) continue; // a builtin or a package
    if (!/\.tsx?$/.test(file)) continue;
    for (const imported of transpilers[file.endsWith(".tsx") ? "tsx" : "ts"].scanImports(readFileSync(file, "utf8"))) {
      if (imported.kind !== "import-statement") continue;
      const target = resolveImport(file, imported.path);
      if (!reached.has(target)) queue.push([target, path]);
    }
  }
  return reached;
}

/** Modules a listing must not load at start, by what they bring. */
const HEAVY = [
  "node:child_process",
  "node:net",
  "simple-git",
  "lib/launch/index.ts",
  "lib/launch/settle.ts",
  "lib/launch/self.ts",
  "lib/create/undo.ts",
  "lib/git/index.ts",
  "lib/harness/index.ts",
  "lib/generated/assets.ts",
  "lib/workspace/index.ts",
  "lib/comms/first-command.ts",
];

function heavyReached(entry: string, allowed: string[] = []): string[] {
  const reached = loadedAtStart(entry);
  return HEAVY.filter((name) => !allowed.includes(name)).flatMap((name) => {
    const key = name.startsWith("lib/") ? join(ROOT, name) : name;
    const chain = reached.get(key);
    return chain ? [chain.join(" <- ")] : [];
  });
}

test("the walk sees what a verb does load (the launch machinery, from session new)", () => {
  // Without this, a walk that found nothing would pass every test below.
  const reached = heavyReached("cmd/session/new.ts");
  expect(reached.some((c) => c.endsWith("lib/launch/index.ts"))).toBe(true);
  expect(reached.some((c) => c.endsWith("lib/harness/index.ts"))).toBe(true);
});

test("session ls loads no launch, git, harness or child-process code at start", () => {
  expect(heavyReached("cmd/session/ls.ts")).toEqual([]);
});

test("the listing behind the board, the dashboard and MCP loads none of it either", () => {
  expect(heavyReached("lib/verbs/list.ts")).toEqual([]);
  expect(heavyReached("lib/sessions/rows.ts")).toEqual([]);
});

test("an agent hook that changes the record loads no launch, git or child-process code either", () => {
  // Every turn of every agent runs it (when the shell fast path cannot answer); after-turn work,
  // drains and deliveries spawn a detached spex, loaded when there is one to start. Delivering a
  // message asks the harness adapter how long a pane must be quiet, so the adapters stay.
  expect(heavyReached("cmd/internal/hook.ts", ["lib/harness/index.ts"])).toEqual([]);
});

test("what an agent runs to declare its state (done, park, ask), and session show, load none of it", () => {
  for (const verb of ["done", "park", "ask", "show"]) expect({ verb, reached: heavyReached(`cmd/session/${verb}.ts`) }).toEqual({ verb, reached: [] });
});

test("session send loads no launch, git or workspace code at start, nor the launchers to ask whether tmux is on PATH", () => {
  // A send types into a pane through the delivery path, which asks the harness adapter how long a pane must
  // be quiet (as the hook does); resolving launchers is create's business, and a PATH lookup is lib/proc/which.
  expect(heavyReached("cmd/session/send.ts", ["lib/harness/index.ts"])).toEqual([]);
  expect(loadedAtStart("cmd/session/send.ts").get(join(ROOT, "lib/launch/launcher.ts"))).toBeUndefined();
});
