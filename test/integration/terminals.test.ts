// Terminals (issue 13, item 1): plain shells beside the agents, driven through
// the built binary against a real tmux server. A fleet of terminals on several
// sessions, close of a session closing exactly its own, hostile text arriving
// as one paste, and the states a terminal can be found in.
import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Sandbox, okJson, sandbox, waitFor } from "../support/sandbox";
import { BUN, FAKE_COMPOSER } from "../support/comms";
import { seedLive } from "../support/teardown";
import { http, serve, spexAsync } from "./backend-support";
import { projectStore } from "../../lib/store";
import { readTerminal, writeTerminal } from "../../lib/terminals/record";

setDefaultTimeout(120000);
let sb: Sandbox;
beforeEach(() => {
  sb = sandbox();
});
afterEach(() => sb.cleanup());

const json = okJson;
const terminalsDir = () => join(projectStore(sb.repo, sb.home).dir, "terminals");
const tmuxSessions = () => (sb.tmux(["list-sessions", "-F", "#{session_name}"]).stdout || "").split("\n").filter(Boolean).sort();
const ls = (...args: string[]) => json(sb.spex(["terminal", "ls", "--json", ...args]));
const open = (...args: string[]) => json(sb.spex(["terminal", "new", "--json", ...args]));
const screenOf = (id: string) => json(sb.spex(["terminal", "read", id, "--json"])).screen as string;

describe("terminals beside sessions", () => {
  test("twenty terminals on six sessions and the main checkout; closing two sessions closes exactly their six", async () => {
    const sessions = Array.from({ length: 6 }, (_, i) => seedLive(sb, { slug: `s${i}`, tmux: false }));
    const opened = new Map<string, string[]>();
    for (const s of sessions) opened.set(s.id, [0, 1, 2].map(() => open("--session", s.id).id));
    const mains = [open().id, open("--name", "builds", "--", "sh", "-c", "sleep 600").id];
    expect(mains.length + 18).toBe(20);

    const rows = ls();
    expect(rows).toHaveLength(20);
    expect(rows.every((r: any) => r.state === "running")).toBe(true);
    for (const s of sessions) {
      const mine = rows.filter((r: any) => r.session === s.id);
      expect(mine.map((r: any) => r.id).sort()).toEqual([...opened.get(s.id)!].sort());
      // Each opens in its own session's worktree, named after the session.
      expect(mine.every((r: any) => r.directory === s.worktree)).toBe(true);
      expect(mine.map((r: any) => r.name).sort()).toEqual([1, 2, 3].map((n) => `task-${s.tmuxName}-${n}`));
    }
    expect(rows.filter((r: any) => r.session === "").map((r: any) => r.directory)).toEqual([sb.repo, sb.repo]);
    expect(ls("--session", sessions[3]!.id).map((r: any) => r.id).sort()).toEqual([...opened.get(sessions[3]!.id)!].sort());
    const before = tmuxSessions();
    expect(before.filter((n) => n.startsWith("term-"))).toHaveLength(20);

    const closing = [sessions[1]!, sessions[4]!];
    for (const s of closing) {
      const r = json(sb.spex(["session", "close", s.id, "--force", "--json"]));
      expect(r.terminals.map((t: any) => t.id).sort()).toEqual([...opened.get(s.id)!].sort());
      expect(r.terminals.every((t: any) => t.tmux === "killed" && t.removed)).toBe(true);
    }
    const after = ls();
    const gone = new Set(closing.flatMap((s) => opened.get(s.id)!));
    expect(after.map((r: any) => r.id).sort()).toEqual(rows.map((r: any) => r.id).filter((id: string) => !gone.has(id)).sort());
    expect(after.every((r: any) => r.state === "running")).toBe(true);
    const left = tmuxSessions().filter((n) => n.startsWith("term-"));
    expect(left).toHaveLength(14);
    for (const id of gone) expect(left.some((n) => n.endsWith(id.replace(/-/g, "").slice(0, 8)))).toBe(false);
  });

  test("a terminal runs in its folder, without the session's identity, and does not count toward maxActive", async () => {
    writeFileSync(join(sb.repo, "spexcode.local.json"), JSON.stringify({ sessions: { maxActive: 1 } }));
    const s = seedLive(sb, { slug: "api-work", tmux: false });
    mkdirSync(join(s.worktree, "services", "api"), { recursive: true });
    const probe = ["--", "sh", "-c", 'echo "cwd=$(pwd) sid=${SPEX_SESSION_ID-unset} tid=$SPEX_TERMINAL_ID"; exec sleep 600'];
    // Opened from inside an agent's pane (SPEX_SESSION_ID set), starting the tmux server itself:
    // the terminal still does not pass for that session (stop ends what runs as a session).
    const inside = json(sb.spex(["terminal", "new", "--json", ...probe], { env: { SPEX_SESSION_ID: s.id } }));
    await waitFor(() => screenOf(inside.id).includes("cwd="), "the first terminal to print");
    expect(screenOf(inside.id)).toBe(`cwd=${sb.repo} sid=unset tid=${inside.id}`);
    const t = open("--session", "spex/api-work", "--dir", "services/api", "--name", "api shell", ...probe);
    await waitFor(() => screenOf(t.id).includes("cwd="), "the terminal to print");
    expect(screenOf(t.id)).toBe(`cwd=${join(s.worktree, "services", "api")} sid=unset tid=${t.id}`);

    // doctor knows the terminals' tmux sessions as this project's, and none of them is an orphan while its record is there.
    const orphans = () => JSON.parse(sb.spex(["doctor", "--json"]).stdout).orphans.tmuxSessions;
    expect(orphans()).toEqual([]);
    rmSync(join(terminalsDir(), `${inside.id}.json`));
    expect(orphans()).toEqual([inside.tmuxSession]);

    const missing = sb.spex(["terminal", "new", "--session", "spex/api-work", "--dir", "no/such/folder", "--json"]);
    expect([missing.code, JSON.parse(missing.stdout).error.code]).toEqual([1, "directory_missing"]);
    // Running terminals hold no slot: with sessions.maxActive 1 an agent still launches.
    expect(ls().map((r: any) => r.state)).toEqual(["running"]);
    const made = sb.spex(["session", "new", "one more", "--launcher", "shell", "--json"]);
    expect([made.code, made.stderr]).toEqual([0, ""]);
  });

  test("a command's arguments reach it whole, a `;` or a trailing `;` included, and a folder ending in `;` is the folder: tmux reads none of it as the end of a command", async () => {
    const odd = join(sb.repo, "odd;");
    mkdirSync(odd);
    // Were `a;` cut at its `;`, the words after it would run as tmux commands: this one would make a tmux session.
    const args = ["a;", ";", "\\;", "new-session", "-d", "-s", "injected", "b"];
    const t = open("--dir", "odd;", "--", "sh", "-c", 'printf "[%s]" "$(pwd)" "$@"; echo; exec sleep 600', "probe", ...args);
    await waitFor(() => screenOf(t.id).includes("["), "the command to print its arguments");
    expect(screenOf(t.id)).toBe(`[${odd}]${args.map((a) => `[${a}]`).join("")}`);
    expect(tmuxSessions()).toEqual([t.tmuxSession]);
  });

  test("hostile text arrives as exactly one paste each, controls made visible; keys outside key names are refused", async () => {
    const log = join(sb.dir, "composer.log");
    const t = open("--name", "composer", "--", "env", "FAKE_NO_STATE=1", `FAKE_LOG=${log}`, BUN, FAKE_COMPOSER);
    await waitFor(() => /^>/m.test(screenOf(t.id)), "the composer's prompt");
    const ESC = "\u001b";
    const hostile: Array<[string, string]> = [
      [`hello${ESC}[201~\nrm -rf ~ # a second command?\n`, "hello\u241b[201~\nrm -rf ~ # a second command?\n"],
      [`a${ESC}[200~b${ESC}[201~\rc\r\nd`, "a\u241b[200~b\u241b[201~\nc\nd"],
      [`eight-bit\u009b201~\nsecond submission?`, "eight-bit\ufffd201~\nsecond submission?"],
      [`bell\u0007 nul\u0000 del\u007f tab\tend`, "bell\u2407 nul\u2400 del\u2421 tab\tend"],
    ];
    const received = () => (existsSync(log) ? require("node:fs").readFileSync(log, "utf8").split("\n").filter(Boolean).map((l: string) => JSON.parse(l).text) : []);
    for (const [i, [body]] of hostile.entries()) {
      const r = json(sb.spex(["terminal", "send", "composer", "--text-file", "-", "--json"], { input: body }));
      expect(r).toMatchObject({ id: t.id, sent: "text", enter: true });
      await waitFor(() => received().length > i, `submission ${i + 1}`);
    }
    expect(received()).toEqual(hostile.map(([, shown]) => shown));

    for (const keys of ["-t other:", "Enter;kill-server", "#{pane_pid}", "--", "$(id)"]) {
      const r = sb.spex(["terminal", "send", t.id, "--keys", keys, "--json"]);
      expect([keys, r.code, JSON.parse(r.stdout).error.code]).toEqual([keys, 2, "usage"]);
    }
    const both = sb.spex(["terminal", "send", t.id, "text", "--keys", "Enter", "--json"]);
    expect([both.code, JSON.parse(both.stdout).error.code]).toEqual([2, "usage"]);
    expect(received()).toHaveLength(hostile.length);
    // Plain key names do go through: C-c ends the composer.
    json(sb.spex(["terminal", "send", t.id, "--keys", "C-c", "--json"]));
    await waitFor(() => ls().find((r: any) => r.id === t.id)?.state === "exited", "the composer to exit");
  });

  test("an exited command keeps its screen; a terminal whose tmux session is gone is listed as gone, and close removes it", async () => {
    const done = open("--name", "once", "--", "sh", "-c", "sleep 0.3; echo finished-42; exit 3");
    await waitFor(() => ls().find((r: any) => r.id === done.id)?.state === "exited", "the command to exit");
    expect(screenOf(done.id)).toContain("finished-42");
    const typed = sb.spex(["terminal", "send", "once", "echo more", "--json"]);
    expect([typed.code, JSON.parse(typed.stdout).error.code]).toEqual([1, "terminal_exited"]);

    const shell = open("--name", "doomed");
    sb.tmux(["kill-server"]);
    const rows = ls();
    expect(rows.map((r: any) => [r.name, r.state])).toEqual([["once", "gone"], ["doomed", "gone"]]);
    const human = sb.spex(["terminal", "ls"]);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain("its tmux session no longer exists");
    for (const verb of [["read", shell.id], ["send", shell.id, "ls"]]) {
      const r = sb.spex(["terminal", ...verb, "--json"]);
      expect([verb[0], r.code, JSON.parse(r.stdout).error.code]).toEqual([verb[0], 1, "terminal_gone"]);
    }
    expect(json(sb.spex(["terminal", "close", "doomed", "--json"]))).toMatchObject({ id: shell.id, tmux: "absent", removed: true, closed: true });
    expect(ls().map((r: any) => r.name)).toEqual(["once"]);
  });

  test("a terminal opened while its session closes is never left behind", async () => {
    for (let round = 0; round < 6; round++) {
      const s = seedLive(sb, { slug: `race${round}`, tmux: false });
      const [made, closed] = await Promise.all([
        spexAsync(sb, ["terminal", "new", "--session", s.id, "--json"]),
        spexAsync(sb, ["session", "close", s.id, "--force", "--json"]),
      ]);
      expect(closed.code).toBe(0);
      // Either the terminal came first and the close took it along, or the close came first and the terminal was refused.
      if (made.code === 0) expect(JSON.parse(closed.stdout).terminals.map((t: any) => t.id)).toEqual([JSON.parse(made.stdout).id]);
      else expect(["session_not_found", "record_absent"]).toContain(JSON.parse(made.stdout).error.code);
      expect(ls().filter((r: any) => r.session === s.id)).toEqual([]);
    }
    expect(tmuxSessions().filter((n) => n.startsWith("term-"))).toEqual([]);
  });
});

describe("a planted terminals folder", () => {
  test("a record that is a link, names another id, or is not JSON reads corrupt, is never followed, and close removes only it", () => {
    const t = open("--name", "real");
    const dir = terminalsDir();
    const outside = join(sb.dir, "outside.json");
    writeFileSync(outside, readFile(join(dir, `${t.id}.json`)));
    const linked = "11111111-2222-4333-8444-555555555555";
    symlinkSync(outside, join(dir, `${linked}.json`));
    const other = "22222222-2222-4333-8444-555555555555";
    writeFileSync(join(dir, `${other}.json`), readFile(join(dir, `${t.id}.json`)));
    const broken = "33333333-2222-4333-8444-555555555555";
    writeFileSync(join(dir, `${broken}.json`), "{ not json");
    writeFileSync(join(dir, "../../x.json"), "{}");
    writeFileSync(join(dir, "not-an-id.json"), readFile(join(dir, `${t.id}.json`)));

    const rows = ls();
    expect(rows.map((r: any) => [r.id, r.state]).sort()).toEqual(
      [[t.id, "running"], [linked, "corrupt"], [other, "corrupt"], [broken, "corrupt"]].sort(),
    );
    expect(rows.find((r: any) => r.id === linked).error).toContain("symbolic link");
    expect(rows.find((r: any) => r.id === other).error).toContain("is not its file's id");
    // Closing the corrupt ones touches no tmux session (none can be trusted) and never the link's target.
    for (const id of [linked, other, broken]) expect(json(sb.spex(["terminal", "close", id.slice(0, 8), "--json"]))).toMatchObject({ id, tmux: "unknown", removed: true });
    expect(existsSync(outside)).toBe(true);
    expect(ls().map((r: any) => r.id)).toEqual([t.id]);
    expect(tmuxSessions().filter((n) => n.startsWith("term-"))).toHaveLength(1);
  });

  test("a folder planted where a terminal record belongs is refused by close with terminal_not_file, and nothing is moved", () => {
    const t = open("--name", "real");
    const dir = terminalsDir();
    const planted = "44444444-2222-4333-8444-555555555555";
    mkdirSync(join(dir, `${planted}.json`));
    writeFileSync(join(dir, `${planted}.json`, "notes.txt"), "someone's\n");
    const before = readdirSync(dir).sort();
    const r = sb.spex(["terminal", "close", planted.slice(0, 8), "--json"]);
    expect(r.code).toBe(1);
    const err = JSON.parse(r.stdout).error;
    expect(err.code).toBe("terminal_not_file");
    expect(err.message).toContain("a folder stands where");
    expect(err.hint).toContain(`ls -la ${join(dir, `${planted}.json`)}`);
    expect(r.stderr).not.toContain("EISDIR");
    // Not renamed out of sight, not emptied; the real terminal untouched.
    expect(readdirSync(dir).sort()).toEqual(before);
    expect(readFile(join(dir, `${planted}.json`, "notes.txt"))).toBe("someone's\n");
    // Reading it says the same instead of advising a close that refuses.
    const read = sb.spex(["terminal", "read", planted.slice(0, 8), "--json"]);
    expect(JSON.parse(read.stdout).error).toMatchObject({ code: "terminal_corrupt", hint: expect.stringContaining("ls -la") });
    expect(JSON.parse(read.stdout).error.hint).not.toContain("terminal close");
    expect(ls().find((row: any) => row.id === t.id).state).toBe("running");
  });

  test("a terminals folder that is a link elsewhere is refused, and nothing is written through it", () => {
    const elsewhere = join(sb.dir, "elsewhere");
    mkdirSync(elsewhere);
    const project = projectStore(sb.repo, sb.home).dir;
    mkdirSync(project, { recursive: true });
    symlinkSync(elsewhere, join(project, "terminals"));
    const r = sb.spex(["terminal", "new", "--json"]);
    expect([r.code, JSON.parse(r.stdout).error.code]).toEqual([1, "unsafe_path"]);
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(tmuxSessions().filter((n) => n.startsWith("term-"))).toEqual([]);
  });
});

describe("terminal names (issue 21 item 5, issue 28 item 9)", () => {
  test("a name shaped like an id prefix is name_invalid and a taken name name_taken, over the CLI and HTTP; eight opens of one name at once: exactly one gets it", async () => {
    const a = open("--name", "tests");
    const b = open();
    const refusal = (r: { code: number; stdout: string }) => [r.code, JSON.parse(r.stdout).error.code];
    // Another terminal's short id, a bare hex word, the shape of a full id: each would catch what is sent to an id.
    for (const name of [b.shortId, b.id.slice(0, 4), "deadbeef-12", b.id]) {
      expect([name, ...refusal(sb.spex(["terminal", "new", "--name", name, "--json"]))]).toEqual([name, 2, "name_invalid"]);
    }
    expect(refusal(sb.spex(["terminal", "new", "--name", "tests", "--json"]))).toEqual([1, "name_taken"]);
    // A name another terminal got by default is taken too.
    expect(refusal(sb.spex(["terminal", "new", "--name", b.name, "--json"]))).toEqual([1, "name_taken"]);
    const served = await serve(sb);
    try {
      const post = (body: unknown) => http(served.url, "/api/terminals", { body, token: served.token });
      const [bad, taken] = [await post({ name: a.shortId }), await post({ name: "tests" })];
      expect([bad.status, bad.json.error.code, taken.status, taken.json.error.code]).toEqual([400, "name_invalid", 409, "name_taken"]);
    } finally {
      await served.stop();
    }
    const racing = await Promise.all(Array.from({ length: 8 }, () => spexAsync(sb, ["terminal", "new", "--name", "builds", "--json"])));
    expect(racing.filter((r) => r.code === 0)).toHaveLength(1);
    expect(racing.filter((r) => r.code !== 0).map((r) => JSON.parse(r.stdout).error.code)).toEqual(Array(7).fill("name_taken"));
    expect(ls().map((r: any) => r.name).sort()).toEqual(["builds", b.name, "tests"].sort());
    // What is sent to a short id reaches that terminal.
    json(sb.spex(["terminal", "send", a.shortId, "echo to-tests", "--json"]));
    await waitFor(() => screenOf(a.id).includes("to-tests"), "the text to reach the terminal named tests");
  });

  test("a name an older spex let through never shadows another terminal's id: ids and id prefixes are tried before names", async () => {
    const target = open("--name", "target", "--", "sh", "-c", "cat");
    const squatter = open("--name", "squatter", "--", "sh", "-c", "cat");
    // Written through the one writer, as a spex without the name check would have.
    const store = projectStore(sb.repo, sb.home);
    const r = readTerminal(store, squatter.id);
    if (r.kind !== "ok") throw new Error("the squatter's record must read");
    writeTerminal(store, { ...r.record, name: target.shortId });
    json(sb.spex(["terminal", "send", target.shortId, "meant-for-target", "--json"]));
    await waitFor(() => screenOf(target.id).includes("meant-for-target"), "the text to reach the terminal whose id it is");
    expect(screenOf(squatter.id)).not.toContain("meant-for-target");
  });

  test("unnamed terminals get short names: the session's name, node or first words, then a number", () => {
    const long = seedLive(sb, { slug: "long", tmux: false, fields: { title: "fix the login bug in the authentication module please" } });
    const named = seedLive(sb, { slug: "named", tmux: false, fields: { name: "auth fixer" } });
    const noded = seedLive(sb, { slug: "noded", tmux: false, fields: { node: "billing" } });
    expect([open("--session", long.id).name, open("--session", long.id).name]).toEqual(["fix-the-login-1", "fix-the-login-2"]);
    expect(open("--session", named.id).name).toBe("auth-fixer-1");
    expect(open("--session", noded.id).name).toBe("billing-1");
    expect(open().name).toBe("main-1");
  });

  test("ls shows what a terminal runs quoted as a shell needs it, and read of an exited one puts tmux's Pane is dead line right under the output", async () => {
    const t = open("--name", "quoted", "--", "sh", "-c", "echo running tests; echo \"it's done\"", "x y");
    await waitFor(() => ls().find((r: any) => r.id === t.id)?.state === "exited", "the command to exit");
    const human = sb.spex(["terminal", "ls"]).stdout;
    expect(human).toContain(`sh -c 'echo running tests; echo "it'\\''s done"' 'x y'`);
    // tmux marks the pane dead a moment before it draws its "Pane is dead" line (and may before the last output): read until both show.
    const read = await waitFor(() => {
      const r = sb.spex(["terminal", "read", "quoted"]);
      return r.code === 0 && r.stdout.includes("it's done") && r.stdout.includes("Pane is dead") && r;
    }, "the command's last line in the read");
    const lines = read.stdout.trimEnd().split("\n");
    expect(lines.slice(-3, -1)).toEqual(["running tests", "it's done"]);
    expect(lines.at(-1)).toMatch(/^Pane is dead \(status 0/);
    expect(lines.length).toBe(3);
  });
});

function readFile(path: string): string {
  return require("node:fs").readFileSync(path, "utf8");
}

describe("a command that ends at once", () => {
  test("its last output and how it ended are kept: sixty quick commands opened at once each read back with what they printed last and tmux's status line", async () => {
    // tmux 3.3a closed a pane whose program had exited before reading what it wrote last (4 of 60 here,
    // every run; 0 or 1 with the pane piped), and tmux built with utempter lost the exit when it saw the
    // end of output first: dead, no status, no "Pane is dead" line (7 of 20 quick commands on a busy server).
    const count = 60;
    const opened = await Promise.all(
      Array.from({ length: count }, (_, i) => spexAsync(sb, ["terminal", "new", "--json", "--name", `quick-${i}`, "--", "sh", "-c", `echo first of ${i}; echo last of ${i}`])),
    );
    const ids = opened.map((r) => json(r).id as string);
    await waitFor(() => ls().filter((r: any) => r.state === "exited").length === count, "every command to exit");
    const missing: string[] = [];
    for (const [i, id] of ids.entries()) {
      const read = await waitFor(() => {
        const screen = screenOf(id);
        return screen.includes("Pane is dead") && screen;
      }, `terminal ${i} to show tmux's Pane is dead line`);
      if (!read.includes(`last of ${i}`) || !/Pane is dead \(status 0/.test(read)) missing.push(`quick-${i}: ${JSON.stringify(read.trim().split("\n"))}`);
    }
    expect(missing).toEqual([]);
  });

  test("one quick command at a time on a busy server: tmux itself has each one's exit status and the screen its output, not a dead pane with no status", async () => {
    // The utempter loss needs nothing else ending afterwards: any later child of the server would reap
    // the lost one. So the commands run one by one, each read while nothing else runs down.
    open("--name", "busy", "--", "sh", "-c", "while :; do sleep 1; done");
    const lost: string[] = [];
    for (let i = 0; i < 12; i++) {
      const t = open("--name", `one-${i}`, "--", "sh", "-c", `sleep 0.1; echo alone ${i}`);
      await waitFor(() => ls().find((r: any) => r.id === t.id)?.state === "exited", `command ${i} to exit`);
      // Asked of tmux itself, not through a spex read (which would make tmux take a lost exit): what a person
      // attached to the pane sees. Fixed, the status is there as the pane reads dead; lost, it never comes.
      const pane = `=${ls().find((r: any) => r.id === t.id).tmuxSession}:`;
      const status = () => sb.tmux(["display-message", "-p", "-t", pane, "#{pane_dead_status}"]).stdout.trim();
      const known = await waitFor(() => status() !== "" || undefined, `command ${i}'s exit status in tmux`, 3000).catch(() => false);
      if (!known || !screenOf(t.id).includes(`alone ${i}`)) lost.push(`one-${i}: ${JSON.stringify(screenOf(t.id))}`);
    }
    expect(lost).toEqual([]);
  });

  test("a shell ended with exit reads back with tmux's status line the first time it is read, one at a time on a busy server", async () => {
    // A plain shell runs under tmux's own start, not spex's wrapper: the read itself makes tmux take a lost exit.
    open("--name", "busy", "--", "sh", "-c", "while :; do sleep 1; done");
    const lost: string[] = [];
    for (let i = 0; i < 8; i++) {
      const t = open("--name", `shell-${i}`);
      await waitFor(() => screenOf(t.id).includes("#") || screenOf(t.id).includes("$") || undefined, `shell ${i}'s prompt`);
      json(sb.spex(["terminal", "send", t.id, `sleep 0.1; echo leaving ${i}; exit`, "--json"]));
      await waitFor(() => ls().find((r: any) => r.id === t.id)?.state === "exited", `shell ${i} to exit`);
      const screen = screenOf(t.id);
      if (!screen.includes(`leaving ${i}`) || !/Pane is dead \(status 0/.test(screen)) lost.push(`shell-${i}: ${JSON.stringify(screen.split("\n").slice(-3))}`);
    }
    expect(lost).toEqual([]);
  });

  test("a command killed by a signal reads as killed by it, with its last line; one that catches Ctrl-C keeps running", async () => {
    const killed = open("--name", "killed", "--", "sh", "-c", "echo about to go; kill -TERM $$");
    const read = await waitFor(() => {
      const screen = screenOf(killed.id);
      return screen.includes("Pane is dead") && screen;
    }, "the killed command's Pane is dead line");
    expect(read).toContain("about to go");
    expect(read).toMatch(/Pane is dead \(signal 15/);

    // The wrapper that waits for tmux must not end on the Ctrl-C meant for the program.
    const stubborn = open("--name", "stubborn", "--", "sh", "-c", "trap 'echo caught' INT; echo ready; while :; do sleep 0.1; done");
    await waitFor(() => screenOf(stubborn.id).includes("ready"), "the program to start");
    json(sb.spex(["terminal", "send", stubborn.id, "--keys", "C-c", "--json"]));
    await waitFor(() => screenOf(stubborn.id).includes("caught"), "the program to see the Ctrl-C");
    json(sb.spex(["terminal", "send", stubborn.id, "--keys", "C-c", "--json"]));
    await waitFor(() => screenOf(stubborn.id).split("caught").length === 3, "the program to see the second Ctrl-C");
    expect(ls().find((r: any) => r.id === stubborn.id)?.state).toBe("running");
  });
});
