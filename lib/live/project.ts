// Which project a pane belongs to, the slug it is known by, and the
// `--project` match: a pane's folder resolves to its main checkout (so a
// linked worktree names its repository); `--project` matches a substring of
// that path or of the slug, ignoring case.
import { basename, resolve } from "node:path";
import { resolveMainRoot } from "../git/main-root";
import { slugify } from "../naming";

/** A slug, never empty: the project folder's name, else the tmux session's, else "unknown". */
export function projectSlugOf(projectPath: string | null, session: string): string {
  return slugify(basename(projectPath ?? "")) || slugify(session) || "unknown";
}

/** Main checkouts of pane folders, asked of git once per folder per observation, and their slugs. */
export class ProjectRoots {
  private readonly cache = new Map<string, string>();
  private readonly slugs = new Map<string, string>();

  /** projectSlugOf, the folder's part worked out once per folder (a fleet's panes share a few). */
  slugOf(projectPath: string | null, session: string): string {
    const key = projectPath ?? "";
    let slug = this.slugs.get(key);
    if (slug === undefined) {
      slug = slugify(basename(key));
      this.slugs.set(key, slug);
    }
    return slug || slugify(session) || "unknown";
  }

  of(cwd: string | null): string | null {
    if (!cwd) return null;
    let root = this.cache.get(cwd);
    if (root === undefined) {
      root = resolveMainRoot(cwd) || cwd;
      this.cache.set(cwd, root);
    }
    return root;
  }
}

function looksLikePath(text: string): boolean {
  return text.includes("/") || text.startsWith(".") || text.startsWith("~");
}

/** `--project`: a substring of the project path or slug, ignoring case; a path (`/`, `.`, `~`) is resolved first. */
export function projectMatcher(project: string): (projectPath: string | null, projectSlug: string) => boolean {
  if (looksLikePath(project)) {
    const path = resolve(project.replace(/^~(?=\/|$)/, process.env.HOME ?? "~"));
    const root = resolveMainRoot(path) ?? path;
    return (projectPath) => projectPath !== null && (projectPath === root || projectPath.includes(path));
  }
  const needle = project.toLowerCase();
  return (projectPath, projectSlug) => (projectPath ?? "").toLowerCase().includes(needle) || projectSlug.includes(needle);
}

/** Host names compare without regard to case. */
export function sameMachine(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
