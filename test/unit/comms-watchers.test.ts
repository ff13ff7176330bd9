// watchers.json: sources per watcher, legacy rows, and which commits make a
// state event or a notice.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { addWatcher, readWatchers, removeWatcherSource, stateEventOf, worthNotice } from "../../lib/comms";
import { type SessionRecord, emptyRecord } from "../../lib/record";
import { type ProjectStore, projectStore, sessionPaths } from "../../lib/store";
import { SpexError } from "../../lib/errors";
import { seedRecord } from "../support/records";
import { cleanEnv, makeRepo } from "../support/sandbox";

let dir: string;
let store: ProjectStore;
let parent: SessionRecord;
let child: SessionRecord;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "spex-watchers-"));
  const repo = makeRepo(join(dir, "repo"), cleanEnv());
  store = projectStore(repo, join(dir, "home"));
  parent = seedRecord(store.home, repo, { prompt: "parent" });
  child = seedRecord(store.home, repo, { prompt: "child", parent: parent.session_id });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("watchers.json", () => {
  test("parent and manual sources on one watcher make one entry that lives while either remains", async () => {
    await addWatcher(store, child.session_id, parent.session_id, "parent");
    await addWatcher(store, child.session_id, parent.session_id, "manual");
    expect(readWatchers(store, child.session_id)).toEqual([{ watcher: parent.session_id, sources: ["manual", "parent"], createdAt: expect.any(String) }]);
    expect((await removeWatcherSource(store, child.session_id, parent.session_id, "manual")).after).toEqual(["parent"]);
    expect((await removeWatcherSource(store, child.session_id, parent.session_id, "parent")).after).toEqual([]);
    expect(JSON.parse(readFileSync(sessionPaths(store, child.session_id).watchers, "utf8"))).toEqual([]);
  });

  test("legacy rows without sources read as parent for the record's parent and manual for anyone else", () => {
    writeFileSync(sessionPaths(store, child.session_id).watchers, JSON.stringify([{ watcher: parent.session_id, createdAt: "t" }, { watcher: "someone-else" }]));
    expect(readWatchers(store, child.session_id).map((e) => [e.watcher, e.sources])).toEqual([
      [parent.session_id, ["parent"]],
      ["someone-else", ["manual"]],
    ]);
  });

  test("a session cannot watch itself", async () => {
    const err = await addWatcher(store, child.session_id, child.session_id, "manual").catch((e) => e);
    expect(err).toBeInstanceOf(SpexError);
    expect((err as SpexError).code).toBe("watch_self");
  });

  test("an unparseable watchers.json is refused by writers, not rewritten", async () => {
    writeFileSync(sessionPaths(store, child.session_id).watchers, "{oops");
    const err = await addWatcher(store, child.session_id, parent.session_id, "manual").catch((e) => e);
    expect((err as SpexError).code).toBe("watchers_corrupt");
    expect(readFileSync(sessionPaths(store, child.session_id).watchers, "utf8")).toBe("{oops");
  });
});

describe("which commits speak", () => {
  const view = (over: Partial<SessionRecord>) => ({ ...emptyRecord("a"), ...over });

  test("a rename makes no state event", () => {
    expect(stateEventOf({ beforeView: view({ name: "a" }), afterView: view({ name: "b" }) })).toBeUndefined();
  });

  test("a lifecycle change makes one event carrying the previous status", () => {
    expect(stateEventOf({ beforeView: view({ status: "active" }), afterView: view({ status: "idle" }) })).toMatchObject({ kind: "state", status: "idle", prev: "active" });
  });

  test("a turn ending is worth a notice; a turn starting is not", () => {
    expect(worthNotice({ beforeView: view({ status: "active" }), afterView: view({ status: "idle" }) })).toBe(true);
    expect(worthNotice({ beforeView: view({ status: "idle" }), afterView: view({ status: "active" }) })).toBe(false);
  });

  test("stopping and archiving are worth a notice whatever the lifecycle", () => {
    expect(worthNotice({ beforeView: view({ status: "active" }), afterView: view({ status: "active", stopped: true }) })).toBe(true);
    expect(worthNotice({ beforeView: view({}), afterView: view({ archived: true }) })).toBe(true);
  });
});
