// The board's watch over a real store (lib/board/services/watch.ts): a listing
// is its one cost, so a file no row reads — a workspace setup script's log,
// appended to many times a second while `npm ci` runs — must not start one,
// while a change to the record or to a side file a row reads still shows.
import { afterEach, describe, expect, test } from "bun:test";
import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BoardWatch } from "../../lib/board/services/watch";
import { boardServices } from "../../lib/board/services";
import type { BoardSnapshot } from "../../lib/board/model/services";
import { projectStore, sessionPaths } from "../../lib/store";
import { seedRecord } from "../support/records";
import { type Sandbox, sandbox, waitFor } from "../support/sandbox";

let sb: Sandbox | undefined;
let board: BoardWatch | undefined;
afterEach(() => {
  board?.stop();
  board = undefined;
  sb?.cleanup();
  sb = undefined;
});

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("the board's watch", () => {
  test("appending to a session's setup.log lists nothing again; a record or files.json change still shows", async () => {
    sb = sandbox();
    const store = projectStore(sb.repo, sb.home);
    const seeded = [1, 2, 3].map((n) => seedRecord(sb!.home, sb!.repo, { prompt: `session ${n}`, status: "idle" }));
    const target = seeded[0]!;
    board = new BoardWatch(store);
    let last: BoardSnapshot | undefined;
    board.subscribe((s) => (last = s));
    await waitFor(() => last?.rows.length === 3, "the first listing");
    const rowOf = () => last?.rows.find((r) => r.id === target.session_id);

    // 40 appends, each given time to reach the watcher as its own event (the
    // board folds a burst closer than its settle time into one listing).
    const log = join(sessionPaths(store, target.session_id).dir, "setup.log");
    const before = board.listings;
    for (let i = 0; i < 40; i++) {
      appendFileSync(log, `added ${i} packages in 1s\n`);
      await pause(60);
    }
    // At most the stat poll's first round (it pokes once when it starts) and the periodic whole listing.
    expect(board.listings - before).toBeLessThanOrEqual(2);

    // The record, through the one writer: shown.
    seedRecord(sb.home, sb.repo, { session_id: target.session_id, prompt: "session 1", status: "asking", note: "which port?" });
    await waitFor(() => {
      const r = rowOf();
      return r?.kind === "ok" && r.note === "which port?";
    }, "the record change on the board");
    // A side file a row reads (no record write, which the stat poll would catch): shown without waiting for the periodic listing.
    writeFileSync(sessionPaths(store, target.session_id).files, JSON.stringify(["lib/a.ts"]));
    const row = await waitFor(() => {
      const r = rowOf();
      return r?.kind === "ok" && r.files?.includes("lib/a.ts") && r;
    }, "the files.json change on the board", 8000);
    expect(row.files).toEqual(["lib/a.ts"]);
  }, 60000);

  test("an action answers only once the list shows its result: restored among fifty, the row is no longer archived in the rows the board holds", async () => {
    sb = sandbox();
    const store = projectStore(sb.repo, sb.home);
    // A fleet's worth, so each listing takes long enough for an action to end while one runs.
    const kept = Array.from({ length: 49 }, (_, i) => seedRecord(sb!.home, sb!.repo, { prompt: `kept ${i}`, status: "idle" }));
    const shelved = seedRecord(sb.home, sb.repo, { prompt: "shelved", status: "idle", archived: true });
    const services = boardServices(store, { ...process.env, HOME: sb.home });
    let last: BoardSnapshot | undefined;
    const unsubscribe = services.watch((s) => (last = s));
    try {
      await waitFor(() => last?.rows.length === 50, "the first listing");
      const archivedOf = (id: string) => {
        const r = last?.rows.find((x) => x.id === id);
        return r?.kind === "ok" ? r.archived : undefined;
      };
      expect(archivedOf(shelved.session_id)).toBe(true);
      // Several in a row, so a listing already running when one ends is covered too (it must not count).
      for (let i = 0; i < 5; i++) {
        const said = await services.restore(shelved.session_id);
        expect(said).toContain("restored");
        // No wait here: the footer line and the rows it reports on arrive together.
        expect(archivedOf(shelved.session_id)).toBe(false);
        await services.archive(shelved.session_id);
        expect(archivedOf(shelved.session_id)).toBe(true);
      }
      expect(kept.filter((k) => archivedOf(k.session_id) !== false)).toEqual([]);
    } finally {
      unsubscribe();
    }
  }, 60000);
});
