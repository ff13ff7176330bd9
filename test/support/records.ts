// Seed records through the library (the one writer), for tests of verbs that
// read or change existing sessions.
import { mkdirSync, writeFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { emptyRecord, type SessionRecord, writeRecordFile } from "../../lib/record";
import { projectStore, sessionPaths } from "../../lib/store";
import { shortId, slugOf, titleOf, nodeOf } from "../../lib/naming";

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
  writeRecordFile(paths.record, record);
  return record;
}
