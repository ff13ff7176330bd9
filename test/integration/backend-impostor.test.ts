// The CLI proves the server before it sends anything (issue 11, item 2): the
// project's backend dies by kill -9, leaving its endpoint record; another
// local user listens on the recorded port. `spex session new` must send that
// listener neither the prompt nor the token, make nothing, and say
// `backend_unproven`; once nothing listens it creates in-process as before.
import { afterEach, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, sandbox, waitFor } from "../support/sandbox";
import { projectStore } from "../../lib/store";
import { readEndpoint } from "../../lib/backend";
import { serve, spexAsync, worktrees } from "./backend-support";
import { IMPOSTOR, impostorLog, otherUser } from "./backend-other-user";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function rows(sb: Sandbox): any[] {
  const r = sb.spex(["session", "ls", "--all", "--json"]);
  if (r.code !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
}

test("after kill -9, an impostor on the recorded port gets neither the prompt nor the token, and nothing is made", async () => {
  const sb = sandbox();
  cleanups.push(() => sb.cleanup());
  writeFileSync(join(sb.repo, "spexcode.local.json"), JSON.stringify({ sessions: { maxActive: 20 } }));
  const be = await serve(sb);
  const port = new URL(be.url).port;
  be.proc.kill("SIGKILL");
  await be.stop();
  expect(readEndpoint(projectStore(sb.repo, sb.home))?.url).toBe(be.url); // the record stayed behind

  const other = otherUser();
  cleanups.push(() => other.cleanup());
  const log = join(other.dir, "impostor.ndjson");
  const impostor = await other.start(IMPOSTOR, [port, log, sb.repo]);
  cleanups.push(() => impostor.stop());
  expect(impostor.firstLine).toBe(`listening ${other.uid}`);

  const secret = `the secret plan ${Math.random().toString(36).slice(2)}`;
  const before = worktrees(sb);
  const r = await spexAsync(sb, ["session", "new", "--launcher", "shell", "--json", secret]);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain("[backend_unproven]");
  expect(JSON.parse(r.stdout).error.code).toBe("backend_unproven");
  expect(r.stdout).not.toContain("impostor");

  const received = impostorLog(log);
  expect(received.length).toBeGreaterThan(0); // it was asked, so the refusal is the proof's doing
  expect(received.map((q) => q.method)).toEqual(received.map(() => "GET"));
  for (const q of received) {
    expect(q.headers.authorization).toBeUndefined();
    expect(JSON.stringify(q)).not.toContain(be.token);
    expect(JSON.stringify(q)).not.toContain(secret);
  }
  expect(worktrees(sb)).toBe(before);
  expect(rows(sb)).toEqual([]);

  // The impostor leaves: the port refuses, and the stale record falls back to an in-process create.
  await impostor.stop();
  const local = await spexAsync(sb, ["session", "new", "--launcher", "shell", "--no-launch", "--json", "after the impostor left"]);
  expect(local.stderr).toBe("");
  expect(JSON.parse(local.stdout).create_request_id).toBe("");
  await waitFor(() => rows(sb).length === 1, "the local session");
});
