// The store's other files are written like its records: never through a link
// planted at a session's folder or at the file itself (DESIGN.md §13), and a
// create receipt can only ever roll back its own session's folder.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { processIdentity } from "../../lib/proc";
import { projectStore, sessionPaths } from "../../lib/store";
import { anotherStart } from "../support/processes";
import { type Sandbox, sandbox } from "../support/sandbox";

let sb: Sandbox;
beforeEach(() => {
  sb = sandbox();
});
afterEach(() => sb.cleanup());

function made(prompt: string): { session_id: string } {
  const r = sb.spex(["session", "new", "--no-launch", "--launcher", "shell", "--json", prompt]);
  if (r.code !== 0) throw new Error(`new ${prompt}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

function paths(id: string) {
  return sessionPaths(projectStore(sb.repo, sb.home), id);
}

function refusedWith(r: { code: number; stderr: string }, code: string): void {
  expect({ exit: r.code === 0 ? 0 : "refused", code: r.stderr.match(/\[([a-z_]+)\]\n$/)?.[1] }).toEqual({ exit: "refused", code });
}

describe("store files are never written through a link", () => {
  test("a send does not append through a timeline planted as a link: unsafe_path, and the link's target keeps its bytes", () => {
    const s = made("a quiet session");
    const victim = join(sb.dir, "victim.txt");
    writeFileSync(victim, "precious\n");
    rmSync(paths(s.session_id).timeline, { force: true });
    symlinkSync(victim, paths(s.session_id).timeline);

    refusedWith(sb.spex(["session", "send", s.session_id, "hello"]), "unsafe_path");
    expect(readFileSync(victim, "utf8")).toBe("precious\n");
  });

  test("a launch does not write launch.sh through a link: unsafe_path, and the link's target keeps its bytes", () => {
    const s = made("echo hi");
    const victim = join(sb.dir, "victim.sh");
    writeFileSync(victim, "# the user's own script\n");
    rmSync(paths(s.session_id).launch, { force: true });
    symlinkSync(victim, paths(s.session_id).launch);

    refusedWith(sb.spex(["session", "resume", s.session_id]), "unsafe_path");
    expect(readFileSync(victim, "utf8")).toBe("# the user's own script\n");
  });
});

describe("a create receipt rolls back only its own session's folder", () => {
  test("a receipt whose owner died and which names another folder as its session folder removes nothing of it", () => {
    const store = projectStore(sb.repo, sb.home);
    const victim = join(sb.dir, "someone-elses-folder");
    mkdirSync(victim);
    writeFileSync(join(victim, "keep.txt"), "mine\n");
    const id = "6f1c2a3b-0000-4000-8000-00000000beef";
    mkdirSync(store.receiptsDir, { recursive: true });
    // An owner that cannot be alive: pid 1's identity with another start time, in the form this
    // pass's backend reads (a form it cannot check would keep the owner alive: make test-portable).
    const init = processIdentity(1)!;
    const owner = { ...init, start: anotherStart(init.start) };
    writeFileSync(
      join(store.receiptsDir, `${id}.json`),
      JSON.stringify({ id, worktree: "", branch: "", made: { sessionDir: victim, files: [join(victim, "keep.txt")] }, owner, createdAt: new Date().toISOString() }),
    );

    const r = sb.spex(["session", "ls", "--json"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("receipt_stuck");
    expect(readFileSync(join(victim, "keep.txt"), "utf8")).toBe("mine\n");
    expect(existsSync(join(store.receiptsDir, `${id}.json`))).toBe(true);
  });
});
