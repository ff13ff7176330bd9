// The source-of-truth branch a session forks from (seed 001, DESIGN.md §5):
// `mainBranch` from spexcode.json, else the repository's default branch, never
// merely whatever the main checkout happens to have out (a user on a feature
// branch must not fork every session from it). One rule for create, close and
// review: the facts come from one git call, the choice is a pure function.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SpexError } from "../errors";
import { findCheckout } from "./main-root";
import { gitEnv } from "./ops";

export interface BranchFacts {
  /** Local branch names (refs/heads/…, without the prefix). */
  local: Set<string>;
  /** The branch origin/HEAD points at (`main` for refs/remotes/origin/main), or "". */
  originHead: string;
  /** The branch the main checkout has out, or "" (detached, unreadable). */
  checkedOut: string;
}

/**
 * The rule, in order: the configured branch (which must exist: a typo is
 * refused, not silently replaced), the local branch origin/HEAD names, `main`,
 * `master`, and only for a repository with none of those the branch the main
 * checkout has out. "" when the repository has no branch at all yet.
 */
export function chooseMainBranch(configured: string, facts: BranchFacts): string {
  if (configured) {
    if (facts.local.has(configured)) return configured;
    const known = [...facts.local].sort().slice(0, 10);
    throw new SpexError("config_invalid", `spexcode.json names mainBranch "${configured}", but this repository has no such local branch`, {
      hint: `set mainBranch to an existing branch${known.length ? ` (${known.join(", ")}${facts.local.size > known.length ? ", …" : ""})` : ""}, or remove it to use the default branch`,
      details: { mainBranch: configured },
      httpStatus: 400,
    });
  }
  for (const candidate of [facts.originHead, "main", "master"]) {
    if (candidate && facts.local.has(candidate)) return candidate;
  }
  return facts.checkedOut;
}

/** The branch facts of a main checkout: one `git for-each-ref`, plus its HEAD file. */
export function branchFacts(mainRoot: string): BranchFacts {
  const r = spawnSync("git", ["for-each-ref", "--format=%(refname)%00%(symref)", "refs/heads", "refs/remotes/origin/HEAD"], {
    cwd: mainRoot,
    env: gitEnv(),
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.error) throw r.error;
  const local = new Set<string>();
  let originHead = "";
  for (const line of (r.status === 0 ? r.stdout : "").split("\n")) {
    const [ref, symref] = line.split("\0");
    if (!ref) continue;
    if (ref.startsWith("refs/heads/")) local.add(ref.slice("refs/heads/".length));
    else if (ref === "refs/remotes/origin/HEAD" && symref?.startsWith("refs/remotes/origin/")) originHead = symref.slice("refs/remotes/origin/".length);
  }
  let checkedOut = "";
  const checkout = findCheckout(mainRoot);
  if (checkout) {
    try {
      const head = readFileSync(join(checkout.gitDir, "HEAD"), "utf8").trim();
      checkedOut = /^ref: refs\/heads\/(.+)$/.exec(head)?.[1] ?? "";
    } catch {
      // no readable HEAD: the rule does without it
    }
  }
  return { local, originHead, checkedOut };
}

/** The source-of-truth branch of a main checkout (see chooseMainBranch); config_invalid for a configured branch that does not exist. */
export function detectMainBranch(mainRoot: string, configured = ""): string {
  return chooseMainBranch(configured, branchFacts(mainRoot));
}
