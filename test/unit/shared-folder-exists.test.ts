// lib/sessions/exists.ts: a listing asks whether each session's worktree is
// still there; past a few questions about one folder the folder is listed
// once. Every answer must be existsSync's, for whatever the folder holds.
import { afterEach, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sharedFolderExists } from "../../lib/sessions/exists";

let dir = "";
afterEach(() => {
  if (dir) {
    chmodSync(join(dir, "wt"), 0o755);
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the same answers as existsSync for folders, files, links (live and dangling), missing names and paths that are not plain", () => {
  dir = mkdtempSync(join(tmpdir(), "spex-exists-"));
  const wt = join(dir, "wt");
  mkdirSync(wt);
  const paths: string[] = [];
  for (let i = 0; i < 40; i++) {
    const p = join(wt, `w${i}`);
    if (i % 5 === 0) writeFileSync(p, "a file");
    else if (i % 7 === 0) symlinkSync(join(dir, "nowhere"), p);
    else if (i % 11 === 0) symlinkSync(wt, p);
    else if (i % 3 !== 0) mkdirSync(p);
    paths.push(p);
  }
  paths.push(`${wt}/w1/`, `${wt}//w1`, `${wt}/./w1`, `${wt}/w1/../w2`, `${wt}/w1/..`, "relative/w1", "/");
  const exists = sharedFolderExists();
  // Twice over: the first pass asks one by one and then lists, the second answers from the listing.
  for (const p of [...paths, ...paths]) expect({ p, found: exists(p) }).toEqual({ p, found: existsSync(p) });
});
