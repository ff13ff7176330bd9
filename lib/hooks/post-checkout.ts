// The git post-checkout hook: installed once in the repository's hooks folder
// without clobbering a user's hook (it is kept and chained to).
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { ASSETS } from "../generated/assets";

const MARK = "spex-post-checkout";

/** The hooks folder git uses: core.hooksPath when set, else <common dir>/hooks. */
export function hooksDir(commonDir: string, mainRoot: string): string {
  try {
    const config = readFileSync(join(commonDir, "config"), "utf8");
    const m = /^\s*hookspath\s*=\s*(.+?)\s*$/im.exec(config);
    if (m) return isAbsolute(m[1]!) ? m[1]! : join(mainRoot, m[1]!);
  } catch {
    // no config: default folder
  }
  return join(commonDir, "hooks");
}

export function installPostCheckout(commonDir: string, mainRoot: string, spexBin: string): string {
  const dir = hooksDir(commonDir, mainRoot);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "post-checkout");
  const text = ASSETS["hooks/post-checkout.sh"]!.replace("@@SPEX_BIN@@", spexBin.replace(/'/g, "'\\''"));
  let existing: string | undefined;
  try {
    existing = readFileSync(file, "utf8");
  } catch {
    existing = undefined;
  }
  if (existing === text) return file;
  if (existing !== undefined && !existing.includes(MARK)) {
    const chained = `${file}.spex-chained`;
    if (!existsSync(chained)) renameSync(file, chained);
  }
  writeFileSync(`${file}.tmp`, text, { mode: 0o755 });
  chmodSync(`${file}.tmp`, 0o755);
  renameSync(`${file}.tmp`, file);
  return file;
}
