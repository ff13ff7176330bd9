// A backend that survives a restart (issue 24 item 3): the project keeps its
// token and port in SPEX_HOME (private files), so a restarted `serve` answers
// where the open tabs look and with the token they hold; `--rotate-token`
// makes a new one; a port someone else took means a new port and a new token
// (tabs that held the old one may have shown it to that listener).
// `spex dashboard` / `serve --url` print the running backend's URL, `--open`
// hands it to the system's opener as one argument, and a second `serve`
// says where the running one is.
import { afterEach, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { type Sandbox, sandbox, waitFor } from "../support/sandbox";
import { projectStore } from "../../lib/store";
import { backendPaths } from "../../lib/backend";
import { serve, spexAsync } from "./backend-support";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function project(): Sandbox {
  const sb = sandbox();
  cleanups.push(() => sb.cleanup());
  return sb;
}

async function served(sb: Sandbox, args: string[] = []) {
  const be = await serve(sb, { args });
  cleanups.push(() => be.stop());
  return be;
}

test("a restarted serve keeps the project's port and token, kept private; --rotate-token makes a new token", async () => {
  const sb = project();
  const first = await served(sb);
  const paths = backendPaths(projectStore(sb.repo, sb.home));
  expect(await first.stop()).toBe(0);
  expect(existsSync(paths.endpoint)).toBe(false);
  expect(statSync(paths.token).mode & 0o777).toBe(0o600);
  expect(statSync(paths.dir).mode & 0o777).toBe(0o700);

  const second = await served(sb);
  expect([second.url, second.token, second.dashboard]).toEqual([first.url, first.token, first.dashboard]);
  expect(await second.stop()).toBe(0);

  const rotated = await served(sb, ["--rotate-token"]);
  expect(rotated.url).toBe(first.url);
  expect(rotated.token).not.toBe(first.token);
  expect(rotated.token).toMatch(/^[0-9a-f]{64}$/);
  expect(readFileSync(paths.token, "utf8").trim()).toBe(rotated.token);
});

test("a port another program took at restart: serve moves to a new port with a new token, and says so", async () => {
  const sb = project();
  const first = await served(sb);
  const port = Number(new URL(first.url).port);
  await first.stop();
  const squatter = createServer((_req, res) => res.end("not spex"));
  await new Promise<void>((r) => squatter.listen(port, "127.0.0.1", () => r()));
  cleanups.push(() => new Promise((r) => squatter.close(r)));

  const moved = await served(sb);
  expect(moved.url).not.toBe(first.url);
  expect(moved.token).not.toBe(first.token);
  expect((moved as any).moved).toEqual({ from: port, tokenRotated: true });
  const text = await spexAsync(sb, ["serve", "--url"]);
  expect(text.stdout.trim()).toBe(moved.dashboard);
});

test("spex dashboard and serve --url print the running backend's URL (and a session's panel), or say none runs", async () => {
  const sb = project();
  const none = await spexAsync(sb, ["dashboard"]);
  expect(none.code).toBe(1);
  expect(none.stderr).toContain("[backend_not_running]");
  expect(none.stderr).toContain("spex serve");

  const be = await served(sb);
  for (const args of [["dashboard"], ["serve", "--url"]]) {
    const r = await spexAsync(sb, args);
    expect([r.code, r.stdout, r.stderr]).toEqual([0, `${be.dashboard}\n`, ""]);
  }
  const json = JSON.parse((await spexAsync(sb, ["dashboard", "--json"])).stdout);
  expect(json).toMatchObject({ url: be.url, dashboard: be.dashboard, pid: be.pid, instanceId: be.instanceId });

  const made = JSON.parse((await spexAsync(sb, ["session", "new", "--launcher", "shell", "--name", "panel target", "--json", "echo hi"])).stdout);
  const panel = await spexAsync(sb, ["dashboard", "panel target"]);
  expect(panel.stdout.trim()).toBe(`${be.dashboard}#/s/${made.session_id}`);

  // A second serve does not start: it says where the running one is, URL and all.
  const second = await spexAsync(sb, ["serve"]);
  expect(second.code).toBe(1);
  expect(second.stderr).toContain("[backend_running]");
  expect(second.stderr).toContain(be.dashboard);
});

test("--open hands the URL to the system's opener as one argument, never through a shell", async () => {
  const sb = project();
  const bin = join(sb.dir, "bin");
  mkdirSync(bin);
  const log = join(sb.dir, "opened");
  // A stand-in xdg-open (and open, on macOS) that records its arguments one per line.
  for (const name of ["xdg-open", "open"]) {
    writeFileSync(join(bin, name), `#!/bin/sh\nprintf '%s\\n' "$#" "$@" >> '${log}'\n`);
    chmodSync(join(bin, name), 0o755);
  }
  const env = { PATH: `${bin}:${process.env.PATH}` };
  const be = await serve(sb, { env });
  cleanups.push(() => be.stop());
  const r = await spexAsync(sb, ["dashboard", "--open"], { env });
  expect(r.code).toBe(0);
  await waitFor(() => existsSync(log) && readFileSync(log, "utf8").split("\n").length >= 3, "the opener to run");
  expect(readFileSync(log, "utf8")).toBe(`1\n${be.dashboard}\n`);

  // A second `serve --open` opens the running one instead of refusing.
  const again = await spexAsync(sb, ["serve", "--open"], { env });
  expect(again.code).toBe(0);
  expect(again.stdout).toContain(be.dashboard);
  await waitFor(() => readFileSync(log, "utf8").split("\n").length >= 5, "the second open");

  // No opener on PATH (git only): the URL is printed with a word on why nothing opened.
  const gitOnly = join(sb.dir, "git-only");
  mkdirSync(gitOnly);
  symlinkSync(spawnSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).stdout.trim(), join(gitOnly, "git"));
  const bare = await spexAsync(sb, ["dashboard", "--open"], { env: { PATH: gitOnly } });
  expect(bare.code).toBe(0);
  expect(bare.stdout.trim()).toBe(be.dashboard);
  expect(bare.stderr).toContain("could not open a browser");
});
