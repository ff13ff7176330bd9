// spex's own agent config, committed on a session's branch. spex renders its
// hooks (and its MCP server) into the worktree with this machine's absolute
// paths, and copies in the main checkout's spexcode.local.json (this machine's
// own settings: a notification sink's address, a token); an agent that runs
// `git add -A` (or edits a tracked .gemini/settings.json and commits it) puts
// them in the branch, and a merge would carry them onto the main branch for
// every clone. merge refuses such a branch, naming the files and the commit
// that takes them out again.
import { HARNESS_NAMES, HOOK_MARKER, harnessAdapter } from "../harness";
import { LOCAL_CONFIG_FILE } from "../config";
import { SpexError } from "../errors";
import { gitSync } from "../git/sync";
import { shellWord } from "../tmux/quote";
import type { ReviewFacts } from "./facts";

/** Every file name a harness reads its hooks or MCP servers from (plus Claude's shared settings). */
function configNames(): string[] {
  const names = new Set<string>([".claude/settings.json"]);
  for (const h of HARNESS_NAMES) for (const f of [...harnessAdapter(h).hookConfigFiles, ...harnessAdapter(h).mcpConfigFiles]) names.add(f);
  return [...names];
}

const isConfigPath = (path: string, names: string[]) => names.some((n) => path === n || path.endsWith(`/${n}`));

/** The text holds what spex renders: its hook command, or its MCP server named by this machine's absolute path. */
function holdsSpexRender(path: string, text: string): boolean {
  if (text.includes(HOOK_MARKER)) return true;
  if (path.endsWith(".toml")) return /^\s*\[mcp_servers\.spex\]\s*$/m.test(text) && /^\s*command\s*=\s*["']\//m.test(text);
  try {
    const server = (JSON.parse(text) as { mcpServers?: { spex?: { command?: unknown } } })?.mcpServers?.spex;
    // A shared declaration of plain `spex mcp` (docs/mcp.md) names no machine's path.
    return typeof server?.command === "string" && server.command.startsWith("/");
  } catch {
    return false;
  }
}

function fileAt(root: string, commit: string, path: string): string | undefined {
  const r = gitSync(root, ["cat-file", "blob", `${commit}:${path}`]);
  return r.code === 0 ? r.stdout : undefined;
}

/**
 * The files `tip` (the branch, or the commit of its work) changed since it
 * left `into` that carry spex's render where `into` has none, and the copy of
 * spexcode.local.json where `into` tracks none (a project that tracks one
 * chose to).
 */
export function committedSpexConfig(root: string, f: ReviewFacts, tip: string): string[] {
  const names = configNames();
  const r = gitSync(root, ["diff", "--name-only", "-z", "--no-renames", "--diff-filter=AM", `${f.intoHead}...${tip}`, "--"]);
  if (r.code !== 0) return [];
  return r.stdout
    .split("\0")
    .filter((p) => p && (p === LOCAL_CONFIG_FILE || isConfigPath(p, names)))
    .filter((p) => {
      if (p === LOCAL_CONFIG_FILE) return fileAt(root, f.intoHead, p) === undefined;
      const ours = fileAt(root, tip, p);
      if (ours === undefined || !holdsSpexRender(p, ours)) return false;
      const main = fileAt(root, f.intoHead, p);
      return main === undefined || !holdsSpexRender(p, main);
    });
}

/** What the refused files are, in a person's words. */
function whatItIs(files: string[]): string {
  const local = files.includes(LOCAL_CONFIG_FILE);
  const rendered = files.some((p) => p !== LOCAL_CONFIG_FILE);
  const copy = `the copy of this machine's ${LOCAL_CONFIG_FILE}, its own settings`;
  if (!rendered) return copy;
  return `spex's own agent config, with this machine's paths in it${local ? `, and ${copy}` : ""}`;
}

/** `onlyStaged`: none of it is committed yet, only staged, and --include-uncommitted would commit it. */
export function spexConfigRefusal(f: ReviewFacts, files: string[], onlyStaged = false): SpexError {
  const short = f.id.slice(0, 8);
  const list = files.map(shellWord).join(" ");
  const wt = shellWord(f.record.worktree_path);
  // `git reset <into> -- F` sets only F in the index to the main branch's version (or out of it when the
  // main branch has none); the file in the worktree keeps spex's render, which close knows as spex's.
  const reset = `git -C ${wt} reset -q ${shellWord(f.into)} -- ${list}`;
  const how = onlyStaged
    ? `unstage it (the files in the worktree stay as they are), then merge again: \`${reset}\``
    : `take it out of the branch with a commit (the files in the worktree stay as they are), then merge again: \`${reset} && git -C ${wt} commit -q -m 'Keep spex agent config out of the branch'\``;
  return new SpexError(
    "spex_config_committed",
    `session ${short}: ${f.branch} ${onlyStaged ? "would commit" : "commits"} ${whatItIs(files)} (${files.join(", ")}); merging would put it on ${f.into}; nothing was merged`,
    {
      hint: f.hasWorktree ? how : `the session's worktree is gone: take ${files.join(", ")} out of ${f.branch} by hand, or close the session`,
      details: { files, branch: f.branch, into: f.into },
    },
  );
}
