// Seed records through the library (the one writer), for tests of verbs that
// read or change existing sessions.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { emptyRecord, notePreview, type SessionRecord, writeRecordFile } from "../../lib/record";
import { projectStore, sessionPaths } from "../../lib/store";
import { previewOfPrompt, shortId, slugOf, titleOf, nodeOf } from "../../lib/naming";

export function seedRecord(
  home: string,
  mainRoot: string,
  fields: Partial<SessionRecord> & { prompt?: string } = {},
): SessionRecord {
  const store = projectStore(mainRoot, home);
  const id = fields.session_id ?? randomUUID();
  const prompt = fields.prompt ?? "seeded session";
  const slug = `${slugOf(prompt)}-${shortId(id)}`;
  const worktree = fields.worktree_path ?? `${mainRoot}/.worktrees/${slug}`;
  mkdirSync(worktree, { recursive: true });
  const { prompt: _p, ...rest } = fields;
  const record: SessionRecord = {
    ...emptyRecord(id),
    project_root: mainRoot,
    worktree_path: worktree,
    branch: `spex/${slug}`,
    node: nodeOf(prompt),
    title: titleOf(prompt),
    harness: "shell",
    launcher: "shell",
    ...rest,
  };
  const paths = sessionPaths(store, id);
  mkdirSync(paths.dir, { recursive: true });
  writeFileSync(paths.prompt, prompt);
  // As create leaves it: the prompt's preview in the listing index, then the record.
  notePreview(store.dir, id, previewOfPrompt(prompt));
  writeRecordFile(paths.record, record);
  return record;
}

/** The stored record of a session as raw JSON (the one project of a sandbox home). */
export function storedRecord(home: string, id: string): Record<string, any> {
  const [key] = readdirSync(join(home, "projects"));
  return JSON.parse(readFileSync(join(home, "projects", key!, "sessions", id, "session.json"), "utf8"));
}
