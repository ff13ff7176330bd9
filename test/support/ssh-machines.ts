// Machines for the multi-machine tests: each one a real OpenSSH server
// (`sshd -D -f <generated config>`) on 127.0.0.1 and an ephemeral port, with
// its own host key, HOME, SPEX_HOME, tmux folder and socket, and agent log
// (set for every login by sshd's SetEnv). The test's spex reaches them through
// SPEX_SSH_COMMAND="ssh -F <generated client config>", with a generated user key.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, connect } from "node:net";
import { join } from "node:path";
import { type RunResult, type Sandbox, cleanEnv, makeRepo, waitFor } from "./sandbox";
import { FAKE_AGENT } from "./agents";
import { listPids, parentPid } from "../../lib/proc";

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
  /** Stop its sshd and every connection it holds; its tmux and sessions keep running. */
  stop(): void;
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
  cleanup(): void;
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

function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, "127.0.0.1");
    s.once("connect", () => {
      s.destroy();
      resolve(true);
    });
    s.once("error", () => resolve(false));
  });
}

/** Every process below `pid` (its children, theirs, …). */
function descendantsOf(pid: number): number[] {
  const parents = new Map(listPids().map((p) => [p, parentPid(p)]));
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const p = queue.shift()!;
    for (const [child, parent] of parents) if (parent === p) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

function keygen(path: string): void {
  const r = spawnSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "spex-test", "-f", path]);
  if (r.status !== 0) throw new Error(`ssh-keygen failed: ${r.stderr}`);
}

// sshd's config takes a quoted word for a value with blanks.
const quoted = (v: string) => `"${v.replace(/(["\\])/g, "\\$1")}"`;

export async function sshFleet(sb: Sandbox, names: string[]): Promise<SshFleet> {
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
  const known: string[] = [];
  const hosts: string[] = [];
  const daemons = new Map<string, ChildProcess>();

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
      LANG: "C.UTF-8",
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
        const child = spawn(SSHD, ["-D", "-f", config, "-E", join(dir, "sshd.log")], { stdio: "ignore", env: { PATH: process.env.PATH ?? "" } });
        daemons.set(name, child);
        await waitFor(() => accepting(port), `sshd of ${name} to listen on ${port}`, 15000);
      },
      stop() {
        // Each connection is served by a process the listener forked: take them all, listener last.
        const listener = daemons.get(name);
        if (!listener?.pid) return;
        for (const pid of [...descendantsOf(listener.pid), listener.pid]) {
          try {
            process.kill(pid, "SIGKILL");
          } catch {
            // already gone
          }
        }
        daemons.delete(name);
      },
      ssh(command, opts = {}) {
        const r = spawnSync("ssh", ["-F", clientConfig, "-o", "BatchMode=yes", name, command], { encoding: "utf8", input: opts.input, timeout: 120000 });
        return { code: r.status ?? -1, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
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
  for (const m of machines) await m.start();
  return {
    clientConfig,
    sshCommand,
    machines,
    cleanup() {
      for (const m of machines) {
        m.tmux(["kill-server"]);
        m.stop();
      }
    },
  };
}
