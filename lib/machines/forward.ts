// `--machine NAME` and `NAME:SEL` on the session verbs, in one place: the verb's
// own argv is rewritten (machine names and options taken out, the caller's
// identity and the machine's repository put in, local files turned into stdin)
// and run by the same spex on that machine; its answer is relayed as it came,
// JSON rows marked with the machine's name. No verb's logic changes.
import type { Readable, Writable } from "node:stream";
import { SpexError } from "../errors";
import { commandLine } from "../tmux/quote";
import { type CommandShape, optionNamed } from "../cli/shape";
import { readSourceBytes } from "../cli/input";
import { printable, printableStyled } from "../cli/output";
import { remoteSessionName, splitMachineSelector } from "../naming/machine";
import { type Machine, findMachine, readMachines } from "./list";
import { runSpexOn } from "./remote";
import { attachOver } from "./attach";

export interface RemoteSpec {
  /** The field that holds the target selector(s): `selector` is the first positional, `selectors` every positional. */
  selectors?: "selector" | "selectors";
  /** Options naming a file (or `-`) read here and handed to the remote on its stdin. */
  files?: string[];
  /** The option that names the caller over there: `--from` (send) or `--cursor` (wait). */
  caller?: "--from" | "--cursor";
  /** attach: run with a terminal (`ssh -t`). */
  tty?: boolean;
}

/** What a name in `--machine` or before `NAME:` turns out to be. */
export type MachineKind = { kind: "local" } | { kind: "remote"; machine: Machine } | { kind: "unknown" };

export interface ForwardInput {
  shape: CommandShape;
  /** The path words as typed (`session`, `send`). */
  path: string[];
  /** The words after the path. */
  rest: string[];
  spec: RemoteSpec;
  machineOption: string | undefined;
  repoOption: string | undefined;
  classify(name: string): MachineKind;
}

export interface ForwardPlan {
  /** The machine to run on; undefined: here. */
  machine: Machine | undefined;
  /** The selectors with a `NAME:` of this machine or another taken off, in order. */
  selectors: string[];
  /** For a remote run: the argv for spex there. */
  argv: string[];
  /** The value of a file option to read here and send on stdin. */
  stdinFrom: string | undefined;
  /** Words of the path at the head of argv (options may go right after them, never after a `--`). */
  pathLength: number;
  /** The caller option as given: its value and where it sits in argv (`inline`: written `--from=V`). */
  callerGiven: { at: number; value: string; inline: boolean } | undefined;
}

const TMUX_WINDOW_PANE = /^\d+(\.\d+)?$/;

function usage(message: string, hint: string): SpexError {
  return new SpexError("usage", message, { hint, exitCode: 2 });
}

/** Pure: which machine a verb's argv names and the argv to run there. */
export function planForward(input: ForwardInput): ForwardPlan {
  const { shape, rest, spec } = input;
  const words = [...rest];
  const positions: number[] = [];
  const dropped = new Set<number>();
  let stdinFrom: ForwardPlan["stdinFrom"];
  let callerGiven: { index: number; value: string; inline: boolean } | undefined;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w === "--") {
      for (let j = i + 1; j < words.length; j++) positions.push(j);
      break;
    }
    if (w === "-" || !w.startsWith("-")) {
      positions.push(i);
      continue;
    }
    const option = optionNamed(shape, w);
    if (!option) continue;
    const eq = w.indexOf("=");
    const name = eq < 0 ? w : w.slice(0, eq);
    const valueAt = eq < 0 ? i + 1 : i;
    const value = eq < 0 ? words[i + 1] : w.slice(eq + 1);
    if (name === "--machine" || name === "--repo") {
      dropped.add(i);
      if (eq < 0) dropped.add(i + 1);
    }
    if (value !== undefined && spec.files?.includes(name)) {
      stdinFrom = value;
      words[valueAt] = eq < 0 ? "-" : `${name}=-`;
    }
    if (value !== undefined && name === spec.caller) callerGiven = { index: valueAt, value, inline: eq >= 0 };
    if (option.arity > 0 && eq < 0) i += option.arity;
  }

  const selectorAt = spec.selectors === "selectors" ? positions : spec.selectors === "selector" ? positions.slice(0, 1) : [];
  const named: { name: string; kind: MachineKind }[] = [];
  if (input.machineOption !== undefined) named.push({ name: input.machineOption, kind: input.classify(input.machineOption) });
  const selectors = selectorAt.map((at) => {
    const split = splitMachineSelector(words[at]!);
    if (!split) return words[at]!;
    const kind = input.classify(split.machine);
    // A NAME that is no machine leaves the selector whole: it may be a tmux target (`router:1.1`),
    // and so may this machine's own name before a window.pane.
    if (kind.kind === "unknown" || (kind.kind === "local" && TMUX_WINDOW_PANE.test(split.selector))) return words[at]!;
    named.push({ name: split.machine, kind });
    words[at] = split.selector;
    return split.selector;
  });
  const unknown = named.find((n) => n.kind.kind === "unknown");
  if (unknown) {
    throw new SpexError("machine_unknown", `no machine named ${unknown.name}`, { hint: "list them with `spex machine ls`; add one with `spex machine add NAME DESTINATION`" });
  }
  const remotes = new Map<string, Machine>();
  for (const n of named) if (n.kind.kind === "remote") remotes.set(n.kind.machine.name, n.kind.machine);
  if (remotes.size > 1 || (remotes.size === 1 && named.some((n) => n.kind.kind === "local"))) {
    throw usage(`one command runs on one machine, and this one names ${[...new Set(named.map((n) => n.name))].join(", ")}`, "run it once per machine");
  }
  const machine = remotes.size === 1 ? [...remotes.values()][0] : undefined;
  const repo = input.repoOption ?? machine?.repo ?? "";
  // Every session verb acts in a repository; over there no folder of ours says which.
  if (machine && !repo) {
    throw new SpexError("machine_repo_missing", `which repository on machine ${machine.name}? no --repo was given and the machine has no default`, {
      hint: `give --repo PATH (a path on ${machine.name}), or re-add the machine with one: ${commandLine(["spex", "machine", "rm", machine.name])}, then ${commandLine(["spex", "machine", "add", machine.name, machine.destination])} --repo PATH`,
    });
  }
  const argv = [...input.path, ...(machine && repo ? ["--repo", repo] : [])];
  let callerAt = -1;
  words.forEach((w, i) => {
    if (dropped.has(i)) return;
    if (callerGiven && i === callerGiven.index) callerAt = argv.length;
    argv.push(w);
  });
  return {
    machine,
    selectors,
    argv,
    stdinFrom,
    pathLength: input.path.length,
    callerGiven: callerGiven && { at: callerAt, value: callerGiven.value, inline: callerGiven.inline },
  };
}

/** `{...}` and `[{...}]` answers carry the machine they came from; an error names it too. */
export function markMachine(value: unknown, machine: string): unknown {
  const mark = (v: unknown): unknown => {
    if (typeof v !== "object" || v === null || Array.isArray(v)) return v;
    const o = v as Record<string, unknown>;
    if (typeof o.error === "object" && o.error !== null && Object.keys(o).length === 1) return { error: { ...(o.error as object), machine } };
    return { ...o, machine };
  };
  return Array.isArray(value) ? value.map(mark) : mark(value);
}

export interface RelayStreams {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
}

export interface CallerIdentity {
  /** This machine's name as live rows give it. */
  machine: string;
  /** The caller's own session here (SPEX_SESSION_ID), if any. */
  sessionId: string | undefined;
  /** A `--from` selector resolved to a session of this machine, if it is one. */
  resolveLocal(selector: string): string | undefined;
}

/** The argv with the caller named the way the other machine can tell: `<this machine>:<session id>`. */
export function withCaller(plan: ForwardPlan, spec: RemoteSpec, caller: CallerIdentity): string[] {
  if (!spec.caller) return plan.argv;
  const argv = [...plan.argv];
  const given = plan.callerGiven;
  if (given) {
    // Only a --from that names a session here is rewritten; a free-form name (or a --cursor) travels as typed.
    const id = spec.caller === "--from" && !given.value.includes(":") ? caller.resolveLocal(given.value) : undefined;
    if (id) argv[given.at] = given.inline ? `--from=${remoteSessionName(caller.machine, id)}` : remoteSessionName(caller.machine, id);
    return argv;
  }
  if (!caller.sessionId) return argv;
  argv.splice(plan.pathLength, 0, spec.caller, remoteSessionName(caller.machine, caller.sessionId));
  return argv;
}

/** Run the planned argv on its machine and relay the answer; the remote's exit code. */
export async function relayRemote(machine: Machine, argv: string[], opts: { json: boolean; tty: boolean; stdinFrom: string | undefined; streams: RelayStreams }): Promise<number> {
  if (opts.tty) return attachOver(machine, argv);
  const stdin = opts.stdinFrom === undefined ? undefined : await readSourceBytes(opts.stdinFrom, opts.streams.stdin);
  const result = await runSpexOn(machine, argv, { stdin });
  // What another machine prints is its text, not ours to pass to this terminal raw: controls are shown
  // escaped (colour sequences aside on stdout), as every screen and name spex prints (DESIGN.md §1.10).
  if (result.stderr) opts.streams.stderr.write(printable(result.stderr));
  const text = result.stdout.toString("utf8");
  if (opts.json && text.trim() !== "") {
    try {
      opts.streams.stdout.write(JSON.stringify(markMachine(JSON.parse(text), machine.name), null, 2) + "\n");
      return result.code;
    } catch {
      // Not one JSON value (a stream of lines): relayed line by line, made printable.
    }
  }
  opts.streams.stdout.write(printableStyled(text));
  return result.code;
}

/** How names read here: this machine's own name, a configured machine, or nothing we know. */
export function machineClassifier(localName: string, machines: () => Machine[]): (name: string) => MachineKind {
  return (name) => {
    if (name.toLowerCase() === localName.toLowerCase()) return { kind: "local" };
    const m = findMachine(name, machines());
    return m ? { kind: "remote", machine: m } : { kind: "unknown" };
  };
}


