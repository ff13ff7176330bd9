// `spex machine install NAME`: this very binary to `~/.local/bin/spex` there,
// streamed over the machine's shared ssh connection, landed by rename so a
// spex running there keeps its old file; skipped when the same build is there.
import { closeSync, openSync, statSync } from "node:fs";
import { SpexError } from "../errors";
import { selfCommand } from "../launch/spawn-self";
import type { Machine } from "./list";
import { type MachineFacts, localPlatform, probeMachine, sameVersion, samePlatform, thisVersion } from "./probe";
import { oneLineOf, runSsh } from "./ssh";

export interface InstallResult {
  machine: string;
  /** installed: copied now; current: the same build was already there. */
  outcome: "installed" | "current";
  path: string;
  bytes: number;
  before: MachineFacts["spex"];
  after: MachineFacts["spex"];
}

/**
 * The remote side of the copy: it lands beside its final name and is renamed
 * over it only once every byte came (a dropped connection or a Ctrl-C ends
 * the stream early, and `cat` sees that as a clean end: the spex there would
 * have been replaced by the start of one); `sessions` is the argv0 alias.
 */
export function receiveScript(bytes: number): string {
  return [
    "set -e",
    'd="$HOME/.local/bin"',
    'mkdir -p "$d"',
    't="$d/.spex-install.$$"',
    "trap 'rm -f \"$t\"' EXIT",
    'cat > "$t"',
    `n=$(wc -c < "$t" | tr -d ' ')`,
    `if [ "$n" != ${bytes} ]; then echo "only $n of ${bytes} bytes arrived; the spex there is as it was" >&2; exit 1; fi`,
    'chmod 755 "$t"',
    'mv -f "$t" "$d/spex"',
    "trap - EXIT",
    '[ -e "$d/sessions" ] || ln -s spex "$d/sessions"',
    'printf "%s\\n" "$d/spex"',
  ].join("; ");
}

/** The compiled binary this process runs from; refused when spex runs from source (there is no one file to copy). */
export function installableBinary(): string {
  const self = selfCommand();
  if (!self || self.length !== 1) {
    throw new SpexError("machine_install_unavailable", "this spex runs from source, not from one compiled binary, so there is nothing to copy", {
      hint: "build it with `make build` and run bin/spex machine install",
    });
  }
  return self[0]!;
}

export async function installOn(machine: Machine, opts: { binary?: string; force?: boolean } = {}): Promise<InstallResult> {
  const binary = opts.binary ?? installableBinary();
  const facts = await probeMachine(machine);
  if (!samePlatform(facts)) {
    const here = localPlatform();
    throw new SpexError("machine_platform_mismatch", `machine ${machine.name} runs ${facts.os || "an unknown OS"}/${facts.arch || "an unknown architecture"}, this spex is built for ${here.os}/${here.arches[0]}`, {
      hint: `put a spex built for ${facts.os}/${facts.arch} at ~/.local/bin/spex there (make build on it, or its dist/release/spex-<os>-<arch> from make release); nothing was copied`,
      details: { machine: machine.name, os: facts.os, arch: facts.arch },
    });
  }
  const bytes = statSync(binary).size;
  if (!opts.force && facts.spex && sameVersion(facts.spex, thisVersion())) {
    return { machine: machine.name, outcome: "current", path: facts.spex.path, bytes, before: facts.spex, after: facts.spex };
  }
  const fd = openSync(binary, "r");
  let r;
  try {
    r = await runSsh(machine, receiveScript(bytes), { stdin: fd });
  } finally {
    closeSync(fd);
  }
  if (r.code !== 0) {
    throw new SpexError("machine_install_failed", `copying spex to machine ${machine.name} failed: ${oneLineOf(r.stderr) || `exit ${r.code}`}`, {
      hint: "check the free space and permissions of ~/.local/bin there",
      details: { machine: machine.name },
    });
  }
  const after = (await probeMachine(machine)).spex;
  if (!sameVersion(after, thisVersion())) {
    throw new SpexError("machine_install_failed", `machine ${machine.name} still reports ${after ? `spex ${after.version} (${after.commit}) at ${after.path}` : "no spex"} after the copy`, {
      hint: `the copy did not land whole (full disk, a file system that refused it); try \`spex machine install ${machine.name} --force\` again`,
      details: { machine: machine.name },
    });
  }
  return { machine: machine.name, outcome: "installed", path: after!.path, bytes, before: facts.spex, after };
}
