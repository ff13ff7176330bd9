// The probe's reading of transport failures: only a cause chain made wholly
// of ECONNREFUSED proves that nothing listens.
import { describe, expect, test } from "bun:test";
import { createServer } from "node:net";
import { onlyConnectionRefused, probeInstance } from "../../lib/backend";

const err = (code?: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(code ?? "plain"), code ? { code } : {}, extra);

describe("onlyConnectionRefused", () => {
  test("a refusal, and an aggregate of refusals (IPv4 and IPv6 tried), prove no listener", () => {
    expect(onlyConnectionRefused(err("ECONNREFUSED"))).toBe(true);
    expect(onlyConnectionRefused(new AggregateError([err("ECONNREFUSED"), err("ECONNREFUSED")]))).toBe(true);
    expect(onlyConnectionRefused(err(undefined, { cause: err("ECONNREFUSED") }))).toBe(true);
  });

  test("anything else anywhere in the chain does not", () => {
    expect(onlyConnectionRefused(err("ETIMEDOUT"))).toBe(false);
    expect(onlyConnectionRefused(err("ECONNRESET"))).toBe(false);
    expect(onlyConnectionRefused(err("ENOTFOUND"))).toBe(false);
    expect(onlyConnectionRefused(err())).toBe(false);
    expect(onlyConnectionRefused(new AggregateError([err("ECONNREFUSED"), err("ENETUNREACH")]))).toBe(false);
    expect(onlyConnectionRefused(err("ECONNREFUSED", { cause: err("ETIMEDOUT") }))).toBe(false);
    expect(onlyConnectionRefused(new AggregateError([]))).toBe(false);
    expect(onlyConnectionRefused(undefined)).toBe(false);
  });
});

describe("probeInstance", () => {
  async function freePort(): Promise<number> {
    const s = createServer();
    await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
    const port = (s.address() as { port: number }).port;
    await new Promise((r) => s.close(r));
    return port;
  }

  test("a closed port on 127.0.0.1 and on localhost reads as refused", async () => {
    const port = await freePort();
    expect((await probeInstance(`http://127.0.0.1:${port}`)).kind).toBe("refused");
    expect((await probeInstance(`http://localhost:${port}`)).kind).toBe("refused");
  });

  test("a name that does not resolve is indeterminate, not refused", async () => {
    const r = await probeInstance("http://no-such-host.invalid:80", 1500);
    expect(r.kind).toBe("indeterminate");
  });
});
