// How a session verb's argv travels to another machine, without ssh: which
// machine it names, what is taken out and put in, and the caller's name there.
import { describe, expect, test } from "bun:test";
import type { CommandClass } from "clipanion";
import { shapeOf } from "../../lib/cli/shape";
import { type Machine, type MachineKind, type RemoteSpec, markMachine, planForward, withCaller } from "../../lib/machines";
import { SessionSendCommand } from "../../cmd/session/send";
import { SessionWaitCommand } from "../../cmd/session/wait";
import { SessionNewCommand } from "../../cmd/session/new";
import { SessionShowCommand } from "../../cmd/session/show";
import { typedText } from "../../lib/comms";

const box: Machine = { name: "box", destination: "me@box", port: null, repo: "/srv/app", addedAt: "" };
const gpu: Machine = { name: "gpu", destination: "gpu", port: 2222, repo: "", addedAt: "" };
const classify = (name: string): MachineKind =>
  name.toLowerCase() === "here" ? { kind: "local" } : name.toLowerCase() === "box" ? { kind: "remote", machine: box } : name === "gpu" ? { kind: "remote", machine: gpu } : { kind: "unknown" };

function plan(klass: CommandClass<any>, argv: string[], options: { machine?: string; repo?: string } = {}) {
  const spec = (klass as unknown as { remote: RemoteSpec }).remote;
  return planForward({ shape: shapeOf(klass), path: argv.slice(0, 2), rest: argv.slice(2), spec, machineOption: options.machine, repoOption: options.repo, classify });
}

describe("planForward", () => {
  test("NAME:SEL of a configured machine runs there with the selector alone and the machine's repository", () => {
    const p = plan(SessionShowCommand, ["session", "show", "box:3f2a", "--json"]);
    expect(p.machine?.name).toBe("box");
    expect(p.argv).toEqual(["session", "show", "--repo", "/srv/app", "3f2a", "--json"]);
  });

  test("--machine and --repo are taken out in both spellings; --repo wins over the machine's default", () => {
    const p = plan(SessionShowCommand, ["session", "show", "--machine=box", "--repo", "/other", "3f2a"], { machine: "box", repo: "/other" });
    expect(p.argv).toEqual(["session", "show", "--repo", "/other", "3f2a"]);
  });

  test("this machine's own name, in any case, runs here with the prefix taken off", () => {
    const p = plan(SessionShowCommand, ["session", "show", "HERE:3f2a"]);
    expect([p.machine, p.selectors]).toEqual([undefined, ["3f2a"]]);
  });

  test("a NAME that is no machine leaves the selector whole (a tmux target such as router:1.1), and so does this machine's name before window.pane", () => {
    const p = plan(SessionShowCommand, ["session", "show", "router:1.1"]);
    expect([p.machine, p.selectors]).toEqual([undefined, ["router:1.1"]]);
    expect(plan(SessionShowCommand, ["session", "show", "here:0.1"]).selectors).toEqual(["here:0.1"]);
    // A live row of another machine names its pane as machine:target.
    expect(plan(SessionShowCommand, ["session", "show", "box:fix-auth-3f2a:0.0"]).argv).toEqual(["session", "show", "--repo", "/srv/app", "fix-auth-3f2a:0.0"]);
  });

  test("only the selector positional names a machine: a message that looks like one stays text", () => {
    const p = plan(SessionSendCommand, ["session", "send", "box:3f2a", "box:not-a-target"]);
    expect(p.argv).toEqual(["session", "send", "--repo", "/srv/app", "3f2a", "box:not-a-target"]);
    const afterDashes = plan(SessionSendCommand, ["session", "send", "--from", "gpu:x", "box:3f2a", "--", "-box:y"]);
    expect(afterDashes.argv).toEqual(["session", "send", "--repo", "/srv/app", "--from", "gpu:x", "3f2a", "--", "-box:y"]);
  });

  test("one command, one machine: two machines, or a machine and this one, are a usage error", () => {
    expect(() => plan(SessionWaitCommand, ["session", "wait", "box:a", "gpu:b"])).toThrow(/one command runs on one machine/);
    expect(() => plan(SessionWaitCommand, ["session", "wait", "box:a", "here:b"])).toThrow(/one command runs on one machine/);
    expect(() => plan(SessionShowCommand, ["session", "show", "--machine", "gpu", "box:a"], { machine: "gpu" })).toThrow(/one command runs on one machine/);
    expect(plan(SessionWaitCommand, ["session", "wait", "box:a", "BOX:b"]).argv).toEqual(["session", "wait", "--repo", "/srv/app", "a", "b"]);
  });

  test("an unknown --machine is machine_unknown; a machine with no repository named is machine_repo_missing", () => {
    expect(() => plan(SessionShowCommand, ["session", "show", "--machine", "nope", "a"], { machine: "nope" })).toThrow(expect.objectContaining({ code: "machine_unknown" }));
    expect(() => plan(SessionShowCommand, ["session", "show", "gpu:a"])).toThrow(expect.objectContaining({ code: "machine_repo_missing" }));
  });

  test("a file option is read here and sent on stdin: its value becomes -", () => {
    const p = plan(SessionNewCommand, ["session", "new", "--machine", "box", "--prompt-file", "/local/task.md", "--json"], { machine: "box" });
    expect([p.stdinFrom, p.argv]).toEqual(["/local/task.md", ["session", "new", "--repo", "/srv/app", "--prompt-file", "-", "--json"]]);
    const inline = plan(SessionSendCommand, ["session", "send", "box:a", "--message-file=-"]);
    expect([inline.stdinFrom, inline.argv]).toEqual(["-", ["session", "send", "--repo", "/srv/app", "a", "--message-file=-"]]);
  });
});

describe("the caller's name on the other machine", () => {
  const caller = (sessionId?: string) => ({ machine: "here", sessionId, resolveLocal: (s: string) => (s === "mine" ? "11111111-2222-4333-8444-555555555555" : undefined) });

  test("a session here sends as here:<id> and waits under that cursor", () => {
    const id = "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee";
    const send = plan(SessionSendCommand, ["session", "send", "box:t", "hi"]);
    expect(withCaller(send, SessionSendCommand.remote, caller(id))).toEqual(["session", "send", "--from", `here:${id}`, "--repo", "/srv/app", "t", "hi"]);
    const wait = plan(SessionWaitCommand, ["session", "wait", "box:t"]);
    expect(withCaller(wait, SessionWaitCommand.remote, caller(id))).toEqual(["session", "wait", "--cursor", `here:${id}`, "--repo", "/srv/app", "t"]);
  });

  test("--from naming a session here becomes here:<id>; a free-form name or another machine's name travels as typed", () => {
    const named = plan(SessionSendCommand, ["session", "send", "--from", "mine", "box:t", "hi"]);
    expect(withCaller(named, SessionSendCommand.remote, caller())).toContain("here:11111111-2222-4333-8444-555555555555");
    const inline = plan(SessionSendCommand, ["session", "send", "--from=mine", "box:t", "hi"]);
    expect(withCaller(inline, SessionSendCommand.remote, caller())).toContain("--from=here:11111111-2222-4333-8444-555555555555");
    for (const from of ["the boss", "gpu:22222222-2222-4333-8444-555555555555"]) {
      const p = plan(SessionSendCommand, ["session", "send", "--from", from, "box:t", "hi"]);
      expect(withCaller(p, SessionSendCommand.remote, caller("aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee"))).toEqual(["session", "send", "--repo", "/srv/app", "--from", from, "t", "hi"]);
    }
  });

  test("no session here and no --from: nothing is added", () => {
    const p = plan(SessionSendCommand, ["session", "send", "box:t", "hi"]);
    expect(withCaller(p, SessionSendCommand.remote, caller())).toEqual(p.argv);
  });
});

test("answers carry their machine: rows, objects and errors", () => {
  expect(markMachine([{ id: "a" }, { id: "b" }], "box")).toEqual([{ id: "a", machine: "box" }, { id: "b", machine: "box" }]);
  expect(markMachine({ stopped: true }, "box")).toEqual({ stopped: true, machine: "box" });
  expect(markMachine({ error: { code: "x", message: "m" } }, "box")).toEqual({ error: { code: "x", message: "m", machine: "box" } });
  expect(markMachine("text", "box")).toBe("text");
});

describe("a sender on another machine, as the recipient reads it", () => {
  const base = { id: "x-1", target: "t", n: 1, keys: [], state: "queued" as const, reason: "", createdAt: "", updatedAt: "", timelineSeq: 1, text: "hello" };

  test("<machine>:<session id> is a session over there, with the reply that reaches it", () => {
    const from = { kind: "name" as const, name: "m1:3f2a9c1e-0000-4000-8000-000000000000" };
    expect(typedText({ ...base, from })).toBe(`[message from session m1:3f2a9c1e on machine m1; reply with: spex session send m1:3f2a9c1e "..."]\nhello`);
  });

  test("any other name with a colon is still a plain name that cannot receive replies", () => {
    for (const name of ["m1:3f2a", "m 1:3f2a9c1e-0000-4000-8000-000000000000", "boss"]) {
      expect(typedText({ ...base, from: { kind: "name" as const, name } })).toBe(`[message from ${name}; it cannot receive replies]\nhello`);
    }
  });
});
