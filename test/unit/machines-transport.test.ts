// The ssh transport's pieces that need no server: the remote command line
// (run through real shells as ssh's remote side would), the ssh argv, the
// shared-connection socket path, the probe's parse and the machine list file.
import { afterEach, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync, existsSync } from "node:fs";
import { receiveScript } from "../../lib/machines/install";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Machine, addMachine, controlPath, parseProbe, readMachines, remoteSpexCommand, removeMachine, sshInvocation } from "../../lib/machines";

const dirs: string[] = [];
function tempDir(prefix = "spex-machines-"): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  delete process.env.SPEX_SSH_COMMAND;
});

const machine: Machine = { name: "box", destination: "me@box", port: null, repo: "", addedAt: "" };

// The hostile strings of the prompt-seam tests, and more.
const HOSTILE = [
  "-rf --resume",
  "--",
  "'; rm -rf ~ #\"$(touch pwned)`touch pwned`\\n",
  "it's \"quoted\" 'twice'",
  "line one\nline two\n",
  "$HOME ${PATH} $((1+1)) * ? [a] ~ ! !! \\",
  "ünïcødé 日本語 🚀",
  "",
  " leading and trailing ",
  "\t-tab",
];

describe("the remote command line", () => {
  // ssh hands the command line to the remote user's login shell with -c.
  const shells = ["sh", "bash", "dash", "zsh"].filter((s) => !spawnSync(s, ["-c", "true"]).error);

  for (const shell of shells) {
    test(`${shell} hands spex every argument as the one word it was here`, () => {
      const home = tempDir();
      mkdirSync(join(home, ".local", "bin"), { recursive: true });
      const fake = join(home, ".local", "bin", "spex");
      writeFileSync(fake, `#!/bin/sh\nfor a in "$@"; do printf '%s\\0' "$a"; done\n`);
      chmodSync(fake, 0o755);
      const r = spawnSync(shell, ["-c", remoteSpexCommand(HOSTILE)], { cwd: home, env: { HOME: home, PATH: "/usr/bin:/bin" }, encoding: "utf8" });
      expect(r.stderr).toBe("");
      expect(r.stdout.split("\u0000").slice(0, -1)).toEqual(HOSTILE);
      expect(existsSync(join(home, "pwned"))).toBe(false);
    });
  }

  test("no spex there: exit 127 with a marker the caller turns into spex_not_installed", () => {
    const home = tempDir();
    const r = spawnSync("/bin/sh", ["-c", remoteSpexCommand(["version"])], { env: { HOME: home, PATH: "/nonexistent" }, encoding: "utf8" });
    expect(r.status).toBe(127);
    expect(r.stderr).toContain("[spex_not_installed]");
  });

  test("a NUL cannot be on a command line: refused before anything runs", () => {
    expect(() => remoteSpexCommand(["a\u0000b"])).toThrow(expect.objectContaining({ code: "usage" }));
  });
});

describe("the ssh invocation", () => {
  test("batch mode, a connect timeout, a shared connection, the port, and the destination after --", () => {
    const home = tempDir();
    const inv = sshInvocation({ ...machine, port: 2222 }, "echo hi", { home });
    expect(inv.file).toBe("ssh");
    const opts = inv.args.filter((_, i) => inv.args[i - 1] === "-o");
    expect(opts).toContain("BatchMode=yes");
    expect(opts).toContain("ControlMaster=auto");
    expect(opts.some((o) => /^ConnectTimeout=\d+$/.test(o))).toBe(true);
    expect(opts.some((o) => /^ControlPersist=\d+$/.test(o))).toBe(true);
    expect(inv.args.slice(-4)).toEqual(["-T", "--", "me@box", "echo hi"]);
    expect(inv.args[inv.args.indexOf("-p") + 1]).toBe("2222");
    expect(sshInvocation(machine, "x", { home, tty: true }).args).toContain("-t");
  });

  test("SPEX_SSH_COMMAND is split by a shell, as git does GIT_SSH_COMMAND, with our arguments after it", () => {
    const home = tempDir();
    const log = join(home, "argv");
    const fake = join(home, "my ssh");
    writeFileSync(fake, `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a"; done > '${log}'\n`);
    chmodSync(fake, 0o755);
    process.env.SPEX_SSH_COMMAND = `'${fake}' -F '/cfg with space'`;
    const inv = sshInvocation(machine, "echo 'hi there'", { home });
    expect(inv.file).toBe("sh");
    spawnSync(inv.file, inv.args);
    const argv = readFileSync(log, "utf8").split("\n").slice(0, -1);
    expect(argv.slice(0, 2)).toEqual(["-F", "/cfg with space"]);
    expect(argv.slice(-3)).toEqual(["--", "me@box", "echo 'hi there'"]);
  });

  test("the shared-connection socket fits a unix socket path: under SPEX_HOME when short, else a private /tmp folder", () => {
    const short = tempDir();
    const path = controlPath(machine, short)!;
    expect(path.startsWith(join(short, "ssh") + "/")).toBe(true);
    expect(Buffer.byteLength(path) + 17).toBeLessThanOrEqual(103);
    const deep = join(tempDir(), "x".repeat(60), "y".repeat(40));
    const fallback = controlPath(machine, deep)!;
    expect(fallback.startsWith(`/tmp/spex-ssh-${process.getuid!()}/`)).toBe(true);
    expect(Buffer.byteLength(fallback) + 17).toBeLessThanOrEqual(103);
    // Another machine, or another SPEX_SSH_COMMAND, is another connection.
    expect(controlPath({ ...machine, destination: "other" }, short)).not.toBe(path);
  });

  test("ssh reads the shared-connection option as the socket path when SPEX_HOME holds a blank, a quote, % or $ (a home folder named John Smith)", () => {
    for (const name of ["John Smith", "it's", 'say "hi"', "50%b", "$HOME", "a\\b"]) {
      const home = join(tempDir(), name, ".spex");
      const path = controlPath(machine, home);
      const { args } = sshInvocation(machine, "true", { home });
      // What ssh makes of our options, without connecting: -G prints the resolved config.
      const r = spawnSync("ssh", ["-G", "-F", "/dev/null", ...args.slice(0, args.indexOf("--")), machine.destination], { encoding: "utf8" });
      expect({ name, code: r.status, stderr: r.stderr }).toEqual({ name, code: 0, stderr: "" });
      expect({ name, controlpath: /^controlpath (.*)$/m.exec(r.stdout)?.[1] }).toEqual({ name, controlpath: path });
    }
  });

  test("a socket folder that is a link or open to others is not used: no sharing rather than someone else's socket", () => {
    const home = tempDir();
    const elsewhere = tempDir();
    symlinkSync(elsewhere, join(home, "ssh"));
    const deep = join(home, "z".repeat(80));
    mkdirSync(deep);
    symlinkSync(elsewhere, join(deep, "ssh"));
    // Short home: its ssh folder is a link, and /tmp's is ours: the /tmp one is used.
    expect(controlPath(machine, home)?.startsWith(`/tmp/spex-ssh-`)).toBe(true);
    const open = tempDir();
    mkdirSync(join(open, "ssh"), { mode: 0o777 });
    chmodSync(join(open, "ssh"), 0o777);
    expect(controlPath(machine, open)?.startsWith(join(open, "ssh"))).toBe(false);
  });
});

describe("the receiving end of machine install", () => {
  test("a copy cut short (a dropped connection, a Ctrl-C) leaves the spex there as it was and no partial file; a whole one lands", () => {
    const home = tempDir();
    const bin = join(home, ".local", "bin");
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, "spex"), "#!/bin/sh\necho old\n");
    const binary = Buffer.from("#!/bin/sh\necho new spex\n".repeat(4000));
    for (const shell of ["sh", "bash", "dash"].filter((s) => !spawnSync(s, ["-c", "true"]).error)) {
      // The stream ends early: what cat sees when ssh goes away.
      const cut = spawnSync(shell, ["-c", receiveScript(binary.length)], { env: { PATH: process.env.PATH!, HOME: home }, input: binary.subarray(0, 5000), encoding: "utf8" });
      expect({ shell, code: cut.status }).toEqual({ shell, code: 1 });
      expect(cut.stderr).toContain(`only 5000 of ${binary.length} bytes arrived`);
      expect(readFileSync(join(bin, "spex"), "utf8")).toBe("#!/bin/sh\necho old\n");
      expect(readdirSync(bin)).toEqual(["spex"]);
    }
    const whole = spawnSync("sh", ["-c", receiveScript(binary.length)], { env: { PATH: process.env.PATH!, HOME: home }, input: binary, encoding: "utf8" });
    expect({ code: whole.status, stderr: whole.stderr, stdout: whole.stdout }).toEqual({ code: 0, stderr: "", stdout: `${join(bin, "spex")}\n` });
    expect(readFileSync(join(bin, "spex")).equals(binary)).toBe(true);
  });
});

test("the probe's answer: uname, load (Linux and BSD forms), cores, the spex there and its version", () => {
  const facts = parseProbe("os=Linux\narch=x86_64\nload=0.52 0.40 0.31 1/123 456\ncpus=8\nspex=/home/me/.local/bin/spex\nversion={  \"version\": \"0.1.0\",  \"commit\": \"abc\",  \"built\": \"d\"}\n", 12);
  expect(facts).toEqual({ os: "Linux", arch: "x86_64", load1: 0.52, load5: 0.4, load15: 0.31, cpus: 8, spex: { path: "/home/me/.local/bin/spex", version: "0.1.0", commit: "abc", built: "d" }, latencyMs: 12 });
  const bsd = parseProbe("os=Darwin\narch=arm64\nload={ 1.5 1.2 1.0 }\ncpus=10\n", 3);
  expect([bsd.load1, bsd.load15, bsd.spex]).toEqual([1.5, 1.0, null]);
  expect(parseProbe("os=Linux\nspex=/usr/bin/spex\nversion=\n", 1).spex?.version).toBe("unknown");
});

describe("machines.json", () => {
  test("add and rm round-trip through the file; names compare ignoring case", async () => {
    const home = tempDir();
    await addMachine({ name: "Box", destination: "me@box", port: 22, repo: "/srv/a b" }, home);
    await expect(addMachine({ name: "box", destination: "x", port: null, repo: "" }, home)).rejects.toMatchObject({ code: "machine_exists" });
    expect(readMachines(home).map((m) => [m.name, m.destination, m.port, m.repo])).toEqual([["Box", "me@box", 22, "/srv/a b"]]);
    await removeMachine("BOX", home);
    expect(readMachines(home)).toEqual([]);
    await expect(removeMachine("box", home)).rejects.toMatchObject({ code: "machine_unknown" });
  });

  test("names and destinations that could be read as something else are refused", async () => {
    const home = tempDir();
    for (const name of ["a:b", "a,b", "-x", "", "a b", "x".repeat(64)]) {
      await expect(addMachine({ name, destination: "h", port: null, repo: "" }, home)).rejects.toMatchObject({ code: "machine_name_invalid" });
    }
    for (const destination of ["-oProxyCommand=sh", "", "a b", "a\nb"]) {
      await expect(addMachine({ name: "ok", destination, port: null, repo: "" }, home)).rejects.toMatchObject({ code: "machine_destination_invalid" });
    }
    expect(existsSync(join(home, "machines.json"))).toBe(false);
  });

  test("a broken or linked file is machines_corrupt, never rewritten", async () => {
    const home = tempDir();
    writeFileSync(join(home, "machines.json"), "{ not json");
    expect(() => readMachines(home)).toThrow(expect.objectContaining({ code: "machines_corrupt" }));
    await expect(addMachine({ name: "a", destination: "h", port: null, repo: "" }, home)).rejects.toMatchObject({ code: "machines_corrupt" });
    expect(readFileSync(join(home, "machines.json"), "utf8")).toBe("{ not json");
    writeFileSync(join(home, "machines.json"), JSON.stringify({ schemaVersion: "spex.machines.v1", machines: [{ name: "a", destination: "-oX", port: null, repo: "", addedAt: "" }] }));
    expect(() => readMachines(home)).toThrow(expect.objectContaining({ code: "machines_corrupt" }));

    const linked = tempDir();
    const target = join(tempDir(), "elsewhere.json");
    writeFileSync(target, JSON.stringify({ schemaVersion: "spex.machines.v1", machines: [] }));
    symlinkSync(target, join(linked, "machines.json"));
    expect(() => readMachines(linked)).toThrow(expect.objectContaining({ code: "machines_corrupt" }));
    await expect(addMachine({ name: "a", destination: "h", port: null, repo: "" }, linked)).rejects.toMatchObject({ code: "machines_corrupt" });
    expect(JSON.parse(readFileSync(target, "utf8")).machines).toEqual([]);
  });

  test("two adds at once both land (the list is changed under its lock)", async () => {
    const home = tempDir();
    await Promise.all(Array.from({ length: 8 }, (_, i) => addMachine({ name: `m${i}`, destination: `h${i}`, port: null, repo: "" }, home)));
    expect(readMachines(home).map((m) => m.name).sort()).toEqual(["m0", "m1", "m2", "m3", "m4", "m5", "m6", "m7"]);
  });
});
