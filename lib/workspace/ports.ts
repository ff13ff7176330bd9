// A block of ports per running session (issue 26 item 3). Chosen under one
// lock every project of this SPEX_HOME shares (stronger than the project
// lock: two projects' sessions never get one block), disjoint from every
// block a record holds, and free on the machine (each port is bound once,
// on every address, and let go). The block is written on the record
// (`ports`), so every reader sees it; stop, a failed launch, an agent's own
// exit and close clear it. A relaunch asks for its last block first and keeps
// it when it is still free.
import { createServer } from "node:net";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SpexError, errnoCode } from "../errors";
import { withLock } from "../lock";
import { writeStoreFile } from "../nofollow";
import { readSession, updateRecord } from "../record";
import { type ProjectStore, listProjectKeys, listSessionIds, sessionPaths, storeForKey } from "../store";
import { type PortBlock, blockText, parseBlock } from "./ports-env";

export function portsLockPath(home: string): string {
  return join(home, "locks", "ports.lock");
}

function lastBlockFile(store: ProjectStore, id: string): string {
  return `${sessionPaths(store, id).dir}/last-ports`;
}

/** Every block a record of this SPEX_HOME holds, but the session's own. */
export function heldBlocks(home: string, except: string): PortBlock[] {
  const held: PortBlock[] = [];
  for (const key of listProjectKeys(home)) {
    const store = storeForKey(home, key, "");
    for (const id of listSessionIds(store)) {
      if (id === except) continue;
      const r = readSession(store, id);
      const b = r.kind === "ok" ? parseBlock(r.record.ports) : undefined;
      if (b) held.push(b);
    }
  }
  return held;
}

const overlaps = (a: PortBlock, b: PortBlock) => a.first <= b.last && b.first <= a.last;

/** Can this port be bound on every address now? (Then nothing listens on it.) */
function bindable(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", (e) => {
      // A machine without IPv6 cannot be in its way.
      const code = errnoCode(e);
      resolve(host === "::" && (code === "EAFNOSUPPORT" || code === "EADDRNOTAVAIL"));
    });
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

async function blockFree(b: PortBlock): Promise<boolean> {
  for (let p = b.first; p <= b.last; p++) {
    if (!(await bindable(p, "0.0.0.0")) || !(await bindable(p, "::"))) return false;
  }
  return true;
}

/** Pure: the blocks to try, the preferred one first, then every aligned block of the range. */
export function candidateBlocks(count: number, range: PortBlock, preferred?: PortBlock): PortBlock[] {
  const out: PortBlock[] = [];
  if (preferred && preferred.last - preferred.first + 1 === count && preferred.first >= range.first && preferred.last <= range.last) out.push(preferred);
  for (let first = range.first; first + count - 1 <= range.last; first += count) {
    if (!preferred || first !== preferred.first) out.push({ first, last: first + count - 1 });
  }
  return out;
}

function noBlock(count: number, range: PortBlock): SpexError {
  return new SpexError("ports_unavailable", `no block of ${count} free ports is left in ${blockText(range)} (held by running sessions, or in use on this machine)`, {
    hint: 'stop a session that holds a block, lower "ports", or widen "portRange" in spexcode.json',
    details: { ports: count, portRange: blockText(range) },
  });
}

/**
 * Give the session a block of `count` ports and write it on its record; the
 * block it last had comes first when it is still free. Returns the block.
 */
export async function assignPorts(store: ProjectStore, id: string, count: number, range: PortBlock): Promise<PortBlock> {
  return withLock(
    portsLockPath(store.home),
    async () => {
      const own = readSession(store, id);
      let last: string | undefined;
      try {
        last = readFileSync(lastBlockFile(store, id), "utf8").trim();
      } catch {
        last = undefined;
      }
      const preferred = parseBlock(own.kind === "ok" ? own.record.ports : undefined) ?? parseBlock(last);
      const held = heldBlocks(store.home, id);
      for (const b of candidateBlocks(count, range, preferred)) {
        if (held.some((h) => overlaps(h, b))) continue;
        if (!(await blockFree(b))) continue;
        const text = blockText(b);
        await updateRecord(store, id, (r) => (r.ports === text ? undefined : { ...r, ports: text }), { reason: "ports", purpose: `ports ${id}` });
        writeStoreFile(lastBlockFile(store, id), text + "\n");
        return b;
      }
      throw noBlock(count, range);
    },
    { purpose: `ports for ${id}` },
  );
}
