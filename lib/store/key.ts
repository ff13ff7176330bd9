// Project keys (DESIGN.md §3, §13). The key is a readable slug of the main
// checkout's real path plus a hash of that path, so `/x/a.b` and `/x/a-b`
// never share a store. Stores made under the old slug-only key are adopted by
// a link from the new key, once, if nothing in them names another checkout.
import { lstatSync, readFileSync, readdirSync, readlinkSync, realpathSync, renameSync, symlinkSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { errnoCode } from "../errors";
import { randomHex } from "../hash";
import { legacyProjectKey } from "./key-name";

export { legacyProjectKey, projectKey } from "./key-name";

export function realOrSelf(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path;
  }
}

function lstatOrUndefined(path: string) {
  try {
    return lstatSync(path);
  } catch (e) {
    const code = errnoCode(e);
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw e;
  }
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

/** Every checkout a legacy store's records (and its backend endpoint) name. */
function rootsNamedIn(dir: string): Set<string> {
  const roots = new Set<string>();
  const note = (v: unknown) => {
    const root = (v as { project_root?: unknown; root?: unknown } | undefined);
    const value = root?.project_root ?? root?.root;
    if (typeof value === "string" && value !== "") roots.add(value);
  };
  let names: string[] = [];
  try {
    names = readdirSync(join(dir, "sessions"));
  } catch {
    // no sessions folder: nothing to name
  }
  for (const n of names) if (!n.startsWith(".")) note(readJson(join(dir, "sessions", n, "session.json")));
  note(readJson(join(dir, "backend", "endpoint.json")));
  return roots;
}

/**
 * Make `projects/<key>` exist as a link to the legacy store of this checkout,
 * when there is one and it is this checkout's alone. The link lands by rename,
 * so racing processes agree; a store that names another checkout stays where
 * it is (that checkout adopts it) and this one starts afresh.
 */
export function adoptLegacyStore(home: string, key: string, realRoot: string): void {
  const projects = join(home, "projects");
  const fresh = join(projects, key);
  if (lstatOrUndefined(fresh)) return;
  const old = legacyProjectKey(realRoot);
  if (!lstatOrUndefined(join(projects, old))?.isDirectory()) return;
  for (const root of rootsNamedIn(join(projects, old))) if (root !== realRoot && realOrSelf(root) !== realRoot) return;
  const temp = join(projects, `.adopt-${key}-${randomHex(4)}`);
  symlinkSync(old, temp);
  try {
    renameSync(temp, fresh);
  } catch (e) {
    unlinkSync(temp);
    // Someone made the fresh store first (a folder there refuses the rename): it wins.
    if (!lstatOrUndefined(fresh)) throw e;
  }
}

/**
 * The store folders under `projects/`, each once: an adoption link is listed
 * under its own (new) name and the legacy folder it points to is not.
 */
export function storeKeys(projects: string): string[] {
  let names: string[];
  try {
    names = readdirSync(projects);
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return [];
    throw e;
  }
  const adopted = new Set<string>();
  const keys: string[] = [];
  for (const n of names) {
    if (n.startsWith(".")) continue;
    const st = lstatOrUndefined(join(projects, n));
    if (!st) continue;
    if (st.isSymbolicLink()) {
      adopted.add(readlinkSync(join(projects, n)));
      keys.push(n);
    } else if (st.isDirectory()) keys.push(n);
  }
  return keys.filter((k) => !adopted.has(k)).sort();
}
