// The sandbox (issue 26 item 4): `session new --sandbox` and a launcher's
// "sandbox" run the agent under bubblewrap: its worktree and the git folder
// writable, the rest of the file system read-only, the network on unless
// no-network, and spex's own hooks and calls from inside still working.
// Driven through the built binary against real bwrap, tmux and git.
import { afterEach, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { type Server, createServer } from "node:net";
import { join } from "node:path";
import { shellQuote } from "../../lib/tmux/quote";
import { sandboxAvailability } from "../../lib/workspace/sandbox";
import { type Sandbox, madeBySpex, makeRepo, sandbox, waitFor } from "../support/sandbox";
import { installed } from "../support/shell-sessions";

let sb: Sandbox;
let server: Server | undefined;
afterEach(() => {
  server?.close();
  server = undefined;
  sb?.cleanup();
});

const bwrap = sandboxAvailability();
const skip = !bwrap.usable || !installed("bash");
const why = !bwrap.usable ? `bubblewrap cannot make a sandbox here: ${bwrap.reason}` : "bash is not installed";

/** spex run in `repo` (a project of its own, not the sandbox's default one). */
function spexIn(repo: string, args: string[], env: Record<string, string> = {}) {
  return sb.spex(args, { cwd: repo, env });
}

function rowIn(repo: string, id: string): Record<string, any> {
  return (JSON.parse(spexIn(repo, ["session", "ls", "--all", "--json"]).stdout) as Record<string, any>[]).find((r) => r.id === id)!;
}

function screenOf(name: string): string {
  return sb.tmux(["capture-pane", "-p", "-t", `=${name}:`, "-S", "-60"]).stdout;
}

async function fileIn(dir: string, name: string, timeoutMs = 20000): Promise<string> {
  const p = join(dir, name);
  await waitFor(() => existsSync(p) && readFileSync(p, "utf8").endsWith("\n"), `${name} in ${dir}`, timeoutMs);
  return readFileSync(p, "utf8");
}

describe("the sandbox", () => {
  test.skipIf(skip)(
    `${skip ? `(skipped: ${why}) ` : ""}inside --sandbox a write outside the worktree fails and one inside succeeds, git commit works, the session reports its lifecycle, and an odd folder name is only a name`,
    async () => {
      sb = sandbox();
      // A name the generated bwrap line must carry as data: spaces, quotes and a command substitution.
      const repo = makeRepo(join(sb.dir, `odd $(touch pwned) 'q' repo`), sb.env);
      writeFileSync(
        join(repo, "spexcode.local.json"),
        JSON.stringify({ launchers: { box: { harness: "shell", command: "bash" }, quiet: { harness: "shell", command: "sh -c 'exec sleep 600' quiet" } } }),
      );
      const r = spexIn(repo, ["session", "new", "--launcher", "box", "--sandbox", "--json", "echo in > inside.txt"], { SHELL: installed("bash") });
      expect(r.stderr).toBe("");
      const created = JSON.parse(r.stdout);
      expect(created.ready).toBe(true);
      expect(created.sandbox).toBe("on");
      const id: string = created.session_id;
      const wt: string = created.worktree_path;
      const send = (text: string) => {
        const s = spexIn(repo, ["session", "send", id, text]);
        if (s.code !== 0) throw new Error(`send exited ${s.code}: ${s.stderr}\n--- screen ---\n${screenOf(created.tmux_session)}`);
      };
      const waitIdle = () => {
        const w = spexIn(repo, ["session", "wait", id, "--idle", "--timeout", "30"]);
        if (w.code !== 0) throw new Error(`wait --idle exited ${w.code}: ${w.stdout}${w.stderr}\n--- screen ---\n${screenOf(created.tmux_session)}`);
      };
      // The prompt hook reports rest from inside: wait --idle returns.
      waitIdle();
      expect(await fileIn(wt, "inside.txt")).toBe("in\n");
      expect(rowIn(repo, id).display).toBe("idle");

      // Outside the worktree: the main checkout and HOME are read-only, /tmp is the sandbox's own.
      const inMain = join(repo, "escaped.txt");
      const inHome = join(sb.env.HOME!, "escaped.txt");
      const inTmp = join(sb.dir, "escaped.txt");
      send(
        [inMain, inHome, inTmp].map((p, i) => `{ echo out > ${shellQuote(p)}; } 2>/dev/null; echo "$?" >> rc-${i}.txt`).join("; "),
      );
      waitIdle();
      expect((await fileIn(wt, "rc-0.txt")).trim()).not.toBe("0");
      expect((await fileIn(wt, "rc-1.txt")).trim()).not.toBe("0");
      await fileIn(wt, "rc-2.txt");
      for (const p of [inMain, inHome, inTmp]) expect(existsSync(p)).toBe(false);

      // git commits on its branch (objects and refs in the repository's git folder).
      send("git add inside.txt && git commit -q -m 'made in the sandbox' && echo committed > commit.txt");
      waitIdle();
      expect(await fileIn(wt, "commit.txt")).toBe("committed\n");
      expect(sb.git(["log", "-1", "--format=%s", created.branch], repo).trim()).toBe("made in the sandbox");

      // A session from inside would need a worktree outside what it may write: refused, said plainly.
      send("spex session new --launcher quiet --json child > child.json");
      waitIdle();
      expect(JSON.parse(await fileIn(wt, "child.json")).error.code).toBe("sandbox_confined");

      // Shown: ls --json and show carry the sandbox.
      expect(rowIn(repo, id).sandbox).toBe("on");
      expect(JSON.parse(spexIn(repo, ["session", "show", id, "--json"]).stdout).workspace.sandbox).toBe("on");

      // The lifecycle from inside to the end: done --then stop.
      send("spex session done --propose nothing --then stop");
      await waitFor(() => rowIn(repo, id)?.stopped === true, "done --then stop to stop the session", 20000, 100).catch((e) => {
        throw new Error(`${(e as Error).message}\n--- screen ---\n${screenOf(created.tmux_session)}`);
      });
      expect(rowIn(repo, id).lifecycle).toBe("awaiting");

      // Nothing in the folder's name ever ran.
      expect(spawnSync("find", [sb.dir, "-name", "pwned"], { encoding: "utf8" }).stdout).toBe("");
    },
    120000,
  );

  test.skipIf(skip)(
    `${skip ? `(skipped: ${why}) ` : ""}an agent in the sandbox cannot plant a hook in the folder core.hooksPath names inside the git folder (git would run it outside the sandbox)`,
    async () => {
      sb = sandbox();
      sb.git(["config", "core.hooksPath", ".git/my hooks"]);
      const agent =
        `bash -c 'for d in "my hooks" hooks; do if { echo "#!/bin/sh" > "$SPEX_PROJECT_ROOT/.git/$d/pre-commit"; } 2>/dev/null; then echo wrote; else echo refused; fi; done > hooks.txt; ` +
        `if { echo x > "$SPEX_PROJECT_ROOT/.git/objects/planted"; } 2>/dev/null; then echo wrote; else echo refused; fi > git.txt; exec sleep 600' agent`;
      writeFileSync(join(sb.repo, "spexcode.local.json"), JSON.stringify({ launchers: { boxed: { harness: "shell", command: agent, sandbox: true } } }));
      const r = sb.spex(["session", "new", "--launcher", "boxed", "--json", "probe"]);
      expect(r.stderr).toBe("");
      const s = JSON.parse(r.stdout) as { worktree_path: string };
      // The git folder stays writable (commits need it); its hooks folders do not.
      expect((await fileIn(s.worktree_path, "git.txt")).trim()).toBe("wrote");
      expect((await fileIn(s.worktree_path, "hooks.txt")).trim().split("\n")).toEqual(["refused", "refused"]);
      expect(existsSync(join(sb.repo, ".git", "my hooks", "pre-commit"))).toBe(false);
    },
    120000,
  );

  /**
   * Run `probe` (bash, in the worktree, inside the sandbox) as a sandboxed
   * session's agent; it ends by writing probe.txt. Each `try LABEL PATH` line
   * it prints says whether appending to PATH was allowed (`LABEL wrote`) or not.
   */
  async function probeInSandbox(probe: string): Promise<{ worktree: string; seen: Record<string, string> }> {
    const lib = [
      'try() { if { printf "\\n" >> "$2"; } 2>/dev/null; then echo "$1 wrote"; else echo "$1 refused"; fi; }',
      'swap() { if { printf "gitdir: /nowhere\\n" > "$2.new" && mv -f "$2.new" "$2"; } 2>/dev/null; then echo "$1 wrote"; else rm -f "$2.new"; echo "$1 refused"; fi; }',
    ].join("\n");
    writeFileSync(join(sb.repo, "probe.sh"), `${lib}\n{\n${probe}\n} > probe.tmp 2>&1; mv probe.tmp probe.txt\n`);
    writeFileSync(
      join(sb.repo, "spexcode.local.json"),
      JSON.stringify({ launchers: { boxed: { harness: "shell", command: `bash -c 'bash "$SPEX_PROJECT_ROOT/probe.sh"; exec sleep 600' agent`, sandbox: true } } }),
    );
    const r = sb.spex(["session", "new", "--launcher", "boxed", "--json", "probe"]);
    expect(r.stderr).toBe("");
    const worktree = (JSON.parse(r.stdout) as { worktree_path: string }).worktree_path;
    const lines = (await fileIn(worktree, "probe.txt")).trim().split("\n");
    const seen: Record<string, string> = {};
    for (const l of lines) {
      const [label, verdict] = l.split(" ");
      seen[label!] = verdict ?? l;
    }
    return { worktree, seen };
  }

  test.skipIf(skip)(
    `${skip ? `(skipped: ${why}) ` : ""}an agent in the sandbox cannot plant a hook or a config in a submodule's git folder (git runs them when you work in the submodule)`,
    async () => {
      sb = sandbox();
      const lib = makeRepo(join(sb.dir, "lib-repo"), sb.env);
      sb.git(["-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "vendor/lib"]);
      sb.git(["commit", "-q", "-m", "a submodule"]);
      const modules = join(sb.repo, ".git", "modules", "vendor", "lib");
      expect(existsSync(join(modules, "config"))).toBe(true);
      const { seen } = await probeInSandbox(
        [
          'M="$SPEX_PROJECT_ROOT/.git/modules/vendor/lib"',
          'try hook "$M/hooks/pre-commit"',
          'try config "$M/config"',
          'try worktree-config "$M/config.worktree"',
          'try new-module "$SPEX_PROJECT_ROOT/.git/modules/planted"',
        ].join("\n"),
      );
      expect(seen).toEqual({ hook: "refused", config: "refused", "worktree-config": "refused", "new-module": "refused" });
      expect(existsSync(join(modules, "hooks", "pre-commit"))).toBe(false);
      expect(readFileSync(join(modules, "config"), "utf8").endsWith("\n\n")).toBe(false);
    },
    120000,
  );

  test.skipIf(skip)(
    `${skip ? `(skipped: ${why}) ` : ""}an agent in the sandbox cannot set config git reads outside it (the repository's config, a worktree's config.worktree, a commondir or gitdir pointer), and still commits on its branch`,
    async () => {
      sb = sandbox();
      // A worktree of the user's own, and per-worktree config on (as git sparse-checkout turns it on).
      const other = join(sb.dir, "other");
      sb.git(["worktree", "add", "-q", "-b", "other", other]);
      sb.git(["config", "extensions.worktreeConfig", "true"]);
      const git = join(sb.repo, ".git");
      const { worktree, seen } = await probeInSandbox(
        [
          'G="$SPEX_PROJECT_ROOT/.git"',
          'OWN="$(git rev-parse --absolute-git-dir)"',
          'echo made > made.txt; if git add made.txt && git commit -q -m "made in the sandbox"; then echo "commit wrote"; else echo "commit refused"; fi',
          // A branch switched to and back (spex's post-checkout hook runs inside), and a stash.
          'if { git checkout -q -b side && git checkout -q - && echo x > made.txt && git stash -q && git stash pop -q; } 2>/dev/null; then echo "branch-and-stash wrote"; else echo "branch-and-stash refused"; fi',
          'try objects "$G/objects/planted"',
          'try config "$G/config"',
          'try main-worktree-config "$G/config.worktree"',
          'try main-commondir "$G/commondir"',
          'try other-worktree-config "$G/worktrees/other/config.worktree"',
          'try other-commondir "$G/worktrees/other/commondir"',
          'try own-worktree-config "$OWN/config.worktree"',
          'try own-commondir "$OWN/commondir"',
          'swap own-commondir-swap "$OWN/commondir"',
          'swap own-gitdir-swap "$OWN/gitdir"',
          'swap gitfile-swap "$PWD/.git"',
          'try gitfile "$PWD/.git"',
        ].join("\n"),
      );
      expect(seen).toEqual({
        commit: "wrote",
        "branch-and-stash": "wrote",
        objects: "wrote",
        config: "refused",
        "main-worktree-config": "refused",
        "main-commondir": "refused",
        "other-worktree-config": "refused",
        "other-commondir": "refused",
        "own-worktree-config": "refused",
        "own-commondir": "refused",
        "own-commondir-swap": "refused",
        "own-gitdir-swap": "refused",
        "gitfile-swap": "refused",
        gitfile: "refused",
      });
      for (const planted of [join(git, "config.worktree"), join(git, "commondir"), join(git, "worktrees", "other", "config.worktree")]) expect(existsSync(planted)).toBe(false);
      // git outside the sandbox still works in the session's worktree and sees its commit.
      expect(sb.git(["log", "-1", "--format=%s"], worktree).trim()).toBe("made in the sandbox");
    },
    120000,
  );

  test.skipIf(skip)(
    `${skip ? `(skipped: ${why}) ` : ""}a launcher's "sandbox": true applies without the flag, --sandbox=no-network takes the network away, --sandbox=off runs it free`,
    async () => {
      sb = sandbox();
      server = createServer((c) => c.end());
      await new Promise<void>((ok) => server!.listen(0, "127.0.0.1", ok));
      const port = (server.address() as { port: number }).port;
      // The agent: can it reach a listener on this machine's loopback, and write in the main checkout?
      const agent =
        `bash -c 'if (exec 3<>/dev/tcp/127.0.0.1/$1) 2>/dev/null; then echo up; else echo down; fi > net.txt; ` +
        `if { echo x > "$SPEX_PROJECT_ROOT/escaped-$SPEX_SESSION_ID"; } 2>/dev/null; then echo wrote; else echo refused; fi > main.txt; exec sleep 600' agent ${port}`;
      writeFileSync(join(sb.repo, "spexcode.local.json"), JSON.stringify({ launchers: { boxed: { harness: "shell", command: agent, sandbox: true } } }));
      const start = (extra: string[]) => {
        const r = sb.spex(["session", "new", "--launcher", "boxed", ...extra, "--json", "probe"]);
        expect(r.stderr).toBe("");
        return JSON.parse(r.stdout) as { session_id: string; worktree_path: string; sandbox?: string };
      };
      const byDefault = start([]);
      const offline = start(["--sandbox=no-network"]);
      const free = start(["--sandbox=off"]);
      const seen = async (s: { worktree_path: string }) => [(await fileIn(s.worktree_path, "net.txt")).trim(), (await fileIn(s.worktree_path, "main.txt")).trim()];
      expect(await seen(byDefault)).toEqual(["up", "refused"]);
      expect(await seen(offline)).toEqual(["down", "refused"]);
      expect(await seen(free)).toEqual(["up", "wrote"]);
      expect(byDefault.sandbox).toBe("on");
      expect(offline.sandbox).toBe("no-network");
      // No sandbox: the record keeps its exact old shape (no field at all).
      expect("sandbox" in free).toBe(false);
      expect(existsSync(join(sb.repo, `escaped-${byDefault.session_id}`))).toBe(false);
      expect(existsSync(join(sb.repo, `escaped-${free.session_id}`))).toBe(true);
    },
    120000,
  );

  test("a bubblewrap that cannot make a sandbox: doctor says so, and new --sandbox refuses before anything is made", () => {
    sb = sandbox();
    // A bwrap that answers --version but, as with user namespaces turned off, makes no sandbox.
    const fake = join(sb.dir, "fake-bin");
    mkdirSync(fake);
    writeFileSync(join(fake, "bwrap"), '#!/bin/sh\nif [ "$1" = --version ]; then echo "bubblewrap 0.0.0"; exit 0; fi\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n');
    chmodSync(join(fake, "bwrap"), 0o755);
    const env = { PATH: `${fake}:${process.env.PATH}` };
    writeFileSync(join(sb.repo, "spexcode.local.json"), JSON.stringify({ launchers: { agent: { harness: "shell", command: "sh -c 'exec sleep 600' agent" } } }));

    const report = JSON.parse(sb.spex(["doctor", "--json"], { env }).stdout);
    const line = report.checks.find((c: any) => c.name === "sandbox");
    expect(line).toMatchObject({ ok: false, required: false, code: "sandbox_unavailable" });
    expect(line.detail).toContain("No permissions to create new namespace");

    const before = madeBySpex(sb);
    const r = sb.spex(["session", "new", "--launcher", "agent", "--sandbox", "--json", "boxed"], { env });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).error.code).toBe("sandbox_unavailable");
    expect(r.stderr).toContain("spex doctor");
    expect(madeBySpex(sb)).toEqual(before);

    // A value that is not a sandbox is a usage error.
    const bad = sb.spex(["session", "new", "--launcher", "agent", "--sandbox=maybe", "boxed"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--sandbox=no-network");
    // Its value goes after "=": a separate word is said so, not taken for a second prompt word.
    const spaced = sb.spex(["session", "new", "--launcher", "agent", "--sandbox", "no-network", "boxed"]);
    expect(spaced.code).toBe(2);
    expect(spaced.stderr).toContain("write --sandbox=no-network");
    // The value as the only word is not the prompt: `--sandbox off` is refused, not a sandboxed session running "off".
    const alone = sb.spex(["session", "new", "--launcher", "agent", "--sandbox", "off"]);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain("write --sandbox=off");
    expect(madeBySpex(sb)).toEqual(before);
  });

  test.skipIf(!bwrap.usable)(`${bwrap.usable ? "" : `(skipped: ${why}) `}doctor reports a bubblewrap that works`, () => {
    sb = sandbox();
    const report = JSON.parse(sb.spex(["doctor", "--json"]).stdout);
    const line = report.checks.find((c: any) => c.name === "sandbox");
    expect(line).toMatchObject({ ok: true });
    expect(line.detail).toContain("usable");
  });
});
