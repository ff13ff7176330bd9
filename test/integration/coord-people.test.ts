// Issue 28.8: a person at the main checkout, outside any session, claims,
// finishes and reserves as themselves (their user name, or --as NAME), and is
// shown as such in task ls, reserve ls and the snapshot; sessions still act
// as themselves and see the person as the holder.
import { afterEach, describe, expect, test } from "bun:test";
import { type Sandbox, sandbox } from "../support/sandbox";
import { seedRecord } from "../support/records";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

const asAlice = { USER: "alice", LOGNAME: "alice" };
const run = (args: string[], env: Record<string, string> = asAlice) => sb.spex(args, { env });
const json = (args: string[], env: Record<string, string> = asAlice) => {
  const r = run([...args, "--json"], env);
  return JSON.parse(r.stdout);
};

describe("people as actors", () => {
  test("outside any session, claim and finish act as the user, shown as a person", () => {
    sb = sandbox();
    expect(run(["task", "new", "write the docs"]).code).toBe(0);
    const claimed = run(["task", "claim"]);
    expect(claimed.stderr).toBe("");
    expect(claimed.stdout).toBe("claimed t1 as alice (person): write the docs\n");
    expect(json(["task", "ls"])[0]).toMatchObject({ id: "t1", state: "in_progress", owner: "person:alice", owner_label: "alice (person)", mine: true });
    expect(run(["task", "ls"]).stdout).toMatch(/t1 +in_progress +alice \(person\) \(you\) +write the docs/);
    // Another person sees it held by alice, and cannot finish it.
    const bob = { USER: "bob", LOGNAME: "bob" };
    expect(json(["task", "ls"], bob)[0]).toMatchObject({ owner_label: "alice (person)", mine: false });
    expect(json(["task", "finish", "t1"], bob).error).toMatchObject({ code: "task_held", holder: "person:alice", holder_label: "alice (person)" });
    expect(json(["task", "finish", "t1"])).toMatchObject({ id: "t1", state: "done", changed: true });
  });

  test("--as NAME acts as that person; --as with --session, or a name that is no name, is a usage error", () => {
    sb = sandbox();
    run(["task", "new", "t"]);
    expect(json(["task", "claim", "t1", "--as", "carol"])).toMatchObject({ owner: "person:carol", owner_label: "carol (person)" });
    expect(json(["task", "release", "t1", "--as", "carol"])).toMatchObject({ state: "pending", owner: "" });
    expect(run(["task", "claim", "t1", "--as", "carol", "--session", "x"]).code).toBe(2);
    const bad = run(["task", "claim", "t1", "--as", "carol; rm -rf ~"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("[usage]");
  });

  test("a person's lease is theirs in reserve ls and the snapshot, and a session reserving over it is told who holds it", () => {
    sb = sandbox();
    const r = run(["reserve", "src/auth"]);
    expect(r.stdout).toBe("reserved src/auth (exclusive, 30m, as alice (person))\n");
    expect(json(["reserve", "ls"])[0]).toMatchObject({ pattern: "src/auth", session_id: "person:alice", holder: "alice (person)", mine: true });
    const snap = json(["snapshot"]);
    expect(snap.reservations[0]).toMatchObject({ session_id: "person:alice", holder: "alice (person)" });
    const s = seedRecord(sb.home, sb.repo, { prompt: "an agent" });
    const clash = json(["reserve", "src/auth/token.ts", "--session", s.session_id]);
    expect(clash.conflicts).toEqual([expect.objectContaining({ pattern: "src/auth", holder: "alice (person)" })]);
    expect(json(["reserve", "release"])).toMatchObject({ released: [expect.objectContaining({ pattern: "src/auth" })] });
  });

  test("the snapshot shows a person's claim as theirs", () => {
    sb = sandbox();
    run(["task", "new", "t"]);
    run(["task", "claim"]);
    expect(json(["snapshot"]).tasks[0]).toMatchObject({ owner: "person:alice", owner_label: "alice (person)", state: "in_progress" });
  });

  test("inside a session (SPEX_SESSION_ID) the session still acts, not the person", () => {
    sb = sandbox();
    const s = seedRecord(sb.home, sb.repo, { prompt: "an agent" });
    run(["task", "new", "t"]);
    expect(json(["task", "claim"], { ...asAlice, SPEX_SESSION_ID: s.session_id })).toMatchObject({ owner: s.session_id });
  });
});
