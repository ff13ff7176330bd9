// Writing spex's hook trust into Codex's user config: one writer at a time
// (a spex lock), the edit of codex-trust.ts, an atomic replace of the real
// file (a symlinked config.toml stays a symlink).
import { chmodSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { SpexError, errnoCode } from "../errors";
import { withLock } from "../lock";
import { spexHome } from "../store";
import { type TrustEdit, type TrustEntry, codexProjectTrustLevel, pruneCodexTrust, same, scan, upsertCodexTrust } from "./codex-trust";
import { tomlString } from "./toml";
import { commandLine, shellWord } from "../tmux/quote";
import { sha256Hex } from "../hash";

/** $CODEX_HOME/config.toml, default ~/.codex/config.toml. */
export function codexConfigFile(env: NodeJS.ProcessEnv = process.env): string {
  const home = env.CODEX_HOME ? resolve(env.CODEX_HOME) : join(env.HOME || homedir(), ".codex");
  return join(home, "config.toml");
}

function realTarget(file: string): string {
  try {
    return realpathSync(file);
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return file;
    throw e;
  }
}

function readText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return "";
    throw e;
  }
}

/** Run fn holding spex's lock on one Codex config file (several creates may render at once). */
export function withCodexConfigLock<T>(configFile: string, home: string | undefined, fn: () => T | Promise<T>): Promise<T> {
  const lock = join(home ?? spexHome(), "locks", `codex-config-${sha256Hex(configFile).slice(0, 12)}.lock`);
  return withLock(lock, fn, { purpose: `codex trust ${configFile}` });
}

/**
 * Write trust for `entries` into the Codex config file, first dropping the
 * trust tables `stale` proves are spex's and dead (pruneCodexTrust); the
 * caller holds withCodexConfigLock.
 */
export function writeCodexTrust(configFile: string, entries: TrustEntry[], stale: (key: string, hash: string) => boolean = () => false): TrustEdit {
  const file = realTarget(configFile);
  try {
    const before = readText(file);
    const edit = upsertCodexTrust(pruneCodexTrust(before, stale).text, entries);
    if (edit.text === before) return edit;
    mkdirSync(dirname(file), { recursive: true });
    let mode = 0o600;
    try {
      mode = statSync(file).mode & 0o7777;
    } catch {
      // a new file: private, like Codex makes it
    }
    const tmp = `${file}.spex-${process.pid}.tmp`;
    try {
      writeFileSync(tmp, edit.text, { mode });
      chmodSync(tmp, mode);
      renameSync(tmp, file);
    } catch (e) {
      // The temporary file is spex's, in the user's folder: it never stays behind.
      rmSync(tmp, { force: true });
      // A config.toml bind-mounted on its own (a container given the host's file) cannot be replaced,
      // only written: in place then, under the same lock.
      if (errnoCode(e) !== "EBUSY") throw e;
      writeFileSync(file, edit.text);
    }
    return edit;
  } catch (e) {
    throw new SpexError("codex_trust_unwritable", `could not record trust for spex's Codex hooks in ${file}: ${(e as Error).message}`, {
      hint: "make that file writable (or point CODEX_HOME elsewhere), then try again; without it Codex asks to review the hooks",
    });
  }
}

/** Record trust for `entries` in the Codex config file; returns what was written and what was left alone. */
export function recordCodexTrust(configFile: string, entries: TrustEntry[], home?: string): Promise<TrustEdit> {
  return withCodexConfigLock(configFile, home, () => writeCodexTrust(configFile, entries));
}

/** Codex's trust level for a main checkout (linked worktrees resolve to it); undefined when unset. */
export function codexProjectTrust(mainRoot: string, env: NodeJS.ProcessEnv = process.env): { file: string; level: string | undefined; advice: string } {
  const file = codexConfigFile(env);
  let text = "";
  try {
    text = readText(realTarget(file));
  } catch {
    // unreadable: reported as unset
  }
  const level = codexProjectTrustLevel(text, mainRoot);
  return { file, level, advice: trustAdvice(text, file, mainRoot, level) };
}

/**
 * What a person does to trust the folder: a line to paste that appends its
 * table (each on a line of its own, as TOML wants a header alone on its line;
 * the folder as a TOML string), or, where the file already speaks of the
 * folder or holds `projects` some other way, the edit to make by hand (a
 * second definition would make the whole file unreadable to Codex).
 */
function trustAdvice(text: string, file: string, mainRoot: string, level: string | undefined): string {
  const header = `[projects.${tomlString(mainRoot)}]`;
  const trusted = `trust_level = "trusted"`;
  if (level !== undefined) return `set ${trusted} in its ${header} table in ${file}`;
  const lines = scan(text);
  const named = text.includes(tomlString(mainRoot)) || text.includes(`'${mainRoot}'`) || lines.some((l) => l.header && same(l.table.slice(0, 2), ["projects", mainRoot]));
  const inline = lines.some((l) => !l.header && !l.inString && l.table.length === 0 && /^[ \t]*("?)projects\1[ \t]*[=.]/.test(l.text));
  if (named || inline) return `add ${trusted} for ${header} where ${file} defines it`;
  const append = `${commandLine(["mkdir", "-p", dirname(file)])} && ${commandLine(["printf", "\\n%s\\n%s\\n", header, trusted])} >> ${shellWord(file)}`;
  return `add its table to ${file}: ${append}`;
}
