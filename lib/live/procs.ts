// Which agent CLI runs in a pane: its foreground command, else the command
// lines of the pane's process tree, else a banner on its screen. A pane's
// descendants come from the kernel's children lists
// (/proc/<pid>/task/<tid>/children), so a pane costs a few reads however many
// processes the machine runs; where the kernel has no such list, /proc is
// scanned once per observation, and only for panes that need it.
import { readFileSync, readdirSync } from "node:fs";
import { AGENT_RULE_SETS, RULE_SETS, type RuleSet, SHELL_COMMANDS } from "./rules";

/** Where command lines of a pane's processes come from (a fake in unit tests). */
export interface ProcessSource {
  commandLines(root: number): string[];
}

export class ProcessTree implements ProcessSource {
  private children: Map<number, number[]> | undefined;
  /** False once the kernel turned out to keep no children lists (CONFIG_PROC_CHILDREN off). */
  private childrenLists = true;
  /** Command lines already read, by the process they start from (live reads them while tmux still captures). */
  private readonly lines = new Map<number, string[]>();

  /** The children of one process from its threads' children lists; undefined when the kernel has none. */
  private childrenOf(pid: number): number[] | undefined {
    if (this.children) return this.children.get(pid) ?? [];
    if (!this.childrenLists) return undefined;
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      return []; // the process ended while we looked
    }
    const out: number[] = [];
    for (const tid of tasks) {
      let list: string;
      try {
        list = readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8");
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === "ENOENT" && tid === String(pid)) {
          this.childrenLists = false;
          return undefined;
        }
        continue;
      }
      for (const word of list.split(" ")) if (word) out.push(Number(word));
    }
    return out;
  }

  private scan(): Map<number, number[]> {
    const map = new Map<number, number[]>();
    let names: string[] = [];
    try {
      names = readdirSync("/proc");
    } catch {
      return map;
    }
    for (const name of names) {
      const pid = Number(name);
      if (!Number.isInteger(pid) || pid <= 0) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      } catch {
        continue;
      }
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const list = map.get(ppid);
      if (list) list.push(pid);
      else map.set(ppid, [pid]);
    }
    return map;
  }

  /** Command lines of a process and its descendants (bounded), NULs turned into spaces. */
  commandLines(root: number, limit = 40): string[] {
    if (!root) return [];
    const known = this.lines.get(root);
    if (known) return known;
    const out: string[] = [];
    const queue = [root];
    while (queue.length > 0 && out.length < limit) {
      const pid = queue.shift()!;
      try {
        out.push(readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\u0000").join(" ").trim());
      } catch {
        // the process ended while we looked
      }
      queue.push(...(this.childrenOf(pid) ?? (this.children ??= this.scan()).get(pid) ?? []));
    }
    this.lines.set(root, out);
    return out;
  }
}

/** Whether telling a pane's agent takes its process tree: its foreground command is neither a shell nor an agent CLI. */
export function needsProcessTree(command: string): boolean {
  return !SHELL_COMMANDS.test(command) && !AGENT_RULE_SETS.some((set) => set.process?.test(command));
}

/** The rule set for a pane spex does not govern. */
export function detectRuleSet(command: string, panePid: number, screen: string, tree: ProcessSource): RuleSet {
  if (SHELL_COMMANDS.test(command)) return RULE_SETS.generic;
  for (const set of AGENT_RULE_SETS) if (set.process?.test(command)) return set;
  const lines = tree.commandLines(panePid);
  for (const set of AGENT_RULE_SETS) if (lines.some((l) => set.process?.test(l))) return set;
  for (const set of AGENT_RULE_SETS) if (set.banner?.test(screen)) return set;
  return RULE_SETS.generic;
}
