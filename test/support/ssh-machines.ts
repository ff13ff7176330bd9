// Machines for the multi-machine tests: each one a real OpenSSH server
// (`sshd -D -f <generated config>`) on 127.0.0.1 and an ephemeral port, with
// its own host key, HOME, SPEX_HOME, tmux folder and socket, and agent log
// (set for every login by sshd's SetEnv). The test's spex reaches them through
// SPEX_SSH_COMMAND="ssh -F <generated client config>", with a generated user key.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { type RunResult, type Sandbox, cleanEnv, makeRepo, waitFor } from "./sandbox";
import { FAKE_AGENT } from "./agents";
import { type SweepTarget, allGone, killSshd, sshdOn, sweep } from "./ssh-sweep";

export const SSHD = "/usr/sbin/sshd";

/** Why the ssh tests cannot run here, or undefined when they can. */
export function sshUnavailable(): string | undefined {
  if (!existsSync(SSHD)) return `${SSHD} is missing (apt-get install openssh-server)`;
  if (spawnSync("ssh", ["-V"]).error) return "the ssh client is missing (apt-get install openssh-client)";
  if (spawnSync("ssh-keygen", ["-?"]).error) return "ssh-keygen is missing (apt-get install openssh-client)";
  return undefined;
}

export interface SshMachine {
  name: string;
  port: number;
  dir: string;
  /** HOME of the machine's logins; spex's store is $HOME/.spex there. */
  home: string;
  spexHome: string;
  /** A repository on that machine (its path holds a space and a quote). */
  repo: string;
  tmuxSocket: string;
  /** Where the fake agents of that machine log argv, prompts and hooks. */
  agentLog: string;
  /** A folder first on that machine's PATH (a test may shadow a command there). */
  binDir: string;
  /** The environment a login on that machine gets. */
  env: Record<string, string>;
  start(): Promise<void>;
  /** Stop its sshd and every connection it accepted (resolves once none is left); its tmux and sessions keep running. */
  stop(): Promise<void>;
  /** A shell command run there through ssh, as that machine's user. */
  ssh(command: string, opts?: { input?: string }): RunResult;
  tmux(args: string[]): RunResult;
  agentEntries(): Array<Record<string, any>>;
}

export interface SshFleet {
  /** `ssh -F <this>` reaches every machine by name. */
  clientConfig: string;
  sshCommand: string;
  machines: SshMachine[];
  /** Masters, sshd and tmux of every machine, gone when it resolves. */
  cleanup(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

function keygen(path: string): void {
  const r = spawnSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "spex-test", "-f", path]);
  if (r.status !== 0) throw new Error(`ssh-keygen failed: ${r.stderr}`);
}

// sshd's config takes a quoted word for a value with blanks.
const quoted = (v: string) => `"${v.replace(/(["\\])/g, "\\$1")}"`;

/** The locale variables of this process: a login on a test machine gets the same (a pass under LC_ALL=C or with LANG unset reaches the remote spex too). */
function ownLocale(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => /^(LANG|LANGUAGE|LC_[A-Z]+)$/.test(e[0]) && e[1] !== undefined));
}

/** `locale`: the locale variables every login gets (sshd's SetEnv; a client sends none), by default this process's own. */
export async function sshFleet(sb: Sandbox, names: string[], opts: { locale?: Record<string, string> } = {}): Promise<SshFleet> {
  // sshd refuses to start without its privilege separation folder.
  if (!existsSync("/run/sshd")) mkdirSync("/run/sshd", { recursive: true, mode: 0o755 });
  const root = join(sb.dir, "machines");
  mkdirSync(root, { recursive: true });
  const userKey = join(root, "id_ed25519");
  keygen(userKey);
  const knownHosts = join(root, "known_hosts");
  const clientConfig = join(root, "ssh_config");
  const sshCommand = `ssh -F ${clientConfig}`;
  const marker = `spex-sshd-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const machines: SshMachine[] = [];
  const lost = new Map<string, string>();
  const known: string[] = [];
  const hosts: string[] = [];

  for (const name of names) {
    const dir = join(root, name);
    const home = join(dir, "home");
    const binDir = join(dir, "bin");
    const tmuxDir = join(dir, "tmux");
    for (const d of [home, binDir, tmuxDir]) mkdirSync(d, { recursive: true, mode: 0o700 });
    symlinkSync(FAKE_AGENT, join(binDir, "claude"));
    const hostKey = join(dir, "ssh_host_ed25519_key");
    keygen(hostKey);
    writeFileSync(join(dir, "authorized_keys"), readFileSync(`${userKey}.pub`));
    const port = await freePort();
    const tmuxSocket = `${marker}-${name}`;
    const agentLog = join(dir, "agent.log");
    const env: Record<string, string> = {
      HOME: home,
      PATH: `${binDir}:/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin`,
      SPEX_MACHINE: name,
      SPEX_TMUX: tmuxSocket,
      SPEX_TMUX_SERVERS: tmuxSocket,
      TMUX_TMPDIR: tmuxDir,
      SPEX_SSH_COMMAND: sshCommand,
      // The same git isolation and identity as every sandbox.
      ...Object.fromEntries(Object.entries(cleanEnv()).filter(([k]) => k.startsWith("GIT_"))),
      FAKE_AGENT_LOG: agentLog,
      ...(opts.locale ?? ownLocale()),
    };
    const config = join(dir, "sshd_config");
    writeFileSync(config, [
      `Port ${port}`,
      "ListenAddress 127.0.0.1",
      `HostKey ${hostKey}`,
      `PidFile ${join(dir, "sshd.pid")}`,
      `AuthorizedKeysFile ${join(dir, "authorized_keys")}`,
      "PubkeyAuthentication yes",
      "PasswordAuthentication no",
      "KbdInteractiveAuthentication no",
      "UsePAM no",
      "StrictModes no",
      "PermitRootLogin prohibit-password",
      "MaxSessions 64",
      "MaxStartups 64",
      `SetEnv ${Object.entries(env).map(([k, v]) => quoted(`${k}=${v}`)).join(" ")}`,
      "LogLevel ERROR",
      "",
    ].join("\n"));
    known.push(`[127.0.0.1]:${port} ${readFileSync(`${hostKey}.pub`, "utf8").trim().split(" ").slice(0, 2).join(" ")}`);
    hosts.push(`Host ${name}`, "  HostName 127.0.0.1", `  Port ${port}`, "");
    const repo = makeRepo(join(dir, "src", "repo 'one'"), { ...sb.env, ...env });
    // A listener that ends without stop() (a stray kill) makes later ssh failures the harness's: say so.
    let stopping = false;
    const m: SshMachine = {
      name,
      port,
      dir,
      home,
      spexHome: join(home, ".spex"),
      repo,
      tmuxSocket,
      agentLog,
      binDir,
      env,
      async start() {
        const log = join(dir, "sshd.log");
        const child = spawn(SSHD, ["-D", "-f", config, "-E", log], { stdio: "ignore", env: { PATH: process.env.PATH ?? "" } });
        stopping = false;
        child.once("exit", (code, signal) => {
          if (!stopping) lost.set(name, `the sshd of test machine ${name} (pid ${child.pid}) ended by ${signal ?? `exit ${code}`} at ${new Date().toISOString()}, not through stop() or cleanup`);
        });
        // Ours must be the process listening there: the port was free a moment ago, not reserved.
        await waitFor(() => {
          if (child.exitCode !== null || child.signalCode !== null) throw new Error(`sshd of ${name} ended before listening on ${port}: ${existsSync(log) ? readFileSync(log, "utf8").trim() : "no log"}`);
          return sshdOn([port]).listeners.includes(child.pid!);
        }, `sshd of ${name} to listen on ${port}`, 15000);
      },
      async stop() {
        // A connection is found by the socket it holds, not as the listener's child: one whose
        // listener died first belongs to init. Each session's commands are its children.
        stopping = true;
        const killed = killSshd([port]);
        await waitFor(() => allGone(killed), `every sshd process of ${name} to end`, 15000);
      },
      ssh(command, opts = {}) {
        const r = spawnSync("ssh", ["-F", clientConfig, "-o", "BatchMode=yes", name, command], { encoding: "utf8", input: opts.input, timeout: 120000 });
        const note = r.status === 255 && lost.has(name) ? `(${lost.get(name)})\n` : "";
        return { code: r.status ?? -1, stdout: r.stdout ?? "", stderr: (r.stderr ?? "") + note };
      },
      tmux(args) {
        const r = spawnSync("tmux", ["-L", tmuxSocket, ...args], { encoding: "utf8", env: { ...process.env, TMUX_TMPDIR: tmuxDir } });
        return { code: r.status ?? -1, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
      },
      agentEntries() {
        if (!existsSync(agentLog)) return [];
        return readFileSync(agentLog, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
      },
    };
    machines.push(m);
  }

  writeFileSync(knownHosts, known.join("\n") + "\n");
  writeFileSync(clientConfig, [
    ...hosts,
    "Host *",
    "  User root",
    `  IdentityFile ${userKey}`,
    "  IdentitiesOnly yes",
    `  UserKnownHostsFile ${knownHosts}`,
    "  GlobalKnownHostsFile /dev/null",
    "  StrictHostKeyChecking yes",
    "  LogLevel ERROR",
    "",
  ].join("\n"));
  const target: SweepTarget = {
    ports: machines.map((m) => m.port),
    tmux: machines.map((m) => ({ socket: m.tmuxSocket, tmpdir: m.env.TMUX_TMPDIR! })),
    folder: sb.dir,
  };
  const reaper = startReaper(target);
  for (const m of machines) await m.start();
  return {
    clientConfig,
    sshCommand,
    machines,
    async cleanup() {
      for (const why of lost.values()) console.warn(why);
      const killed = sweep(target);
      await waitFor(() => allGone(killed), "the fleet's masters and sshd to end", 15000);
      reaper.stdin?.end("done\n");
    },
  };
}

/** A detached watcher that sweeps the fleet if this process dies before its cleanup (ssh-reaper.ts). */
function startReaper(target: SweepTarget): ChildProcess {
  const child = spawn(process.execPath, [join(__dirname, "ssh-reaper.ts"), JSON.stringify(target)], { detached: true, stdio: ["pipe", "ignore", "ignore"] });
  child.unref();
  (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  return child;
}

