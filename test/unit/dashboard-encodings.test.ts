// The dashboard's files are embedded brotli-compressed only; the plain text and
// gzip a browser may ask for instead are made from it by the server. Each of
// the three answers must carry the same file.
import { expect, test } from "bun:test";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { DASHBOARD_PATHS, dashboardAnswer } from "../../lib/backend/dashboard";

test("every dashboard file is the same text plain, gzip and brotli, each with its encoding named", () => {
  expect(DASHBOARD_PATHS.length).toBeGreaterThanOrEqual(3);
  for (const path of DASHBOARD_PATHS) {
    const plain = dashboardAnswer(path, undefined)!;
    const gzip = dashboardAnswer(path, "gzip")!;
    const br = dashboardAnswer(path, "gzip, deflate, br")!;
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(br.headers["content-encoding"]).toBe("br");
    const text = String(plain.body);
    expect(text.length).toBeGreaterThan(100);
    expect(gunzipSync(gzip.body as Buffer).toString("utf8")).toBe(text);
    expect(brotliDecompressSync(br.body as Buffer).toString("utf8")).toBe(text);
    // A second answer is the same bytes (made once).
    expect(dashboardAnswer(path, "gzip")!.body).toBe(gzip.body);
  }
});

test("a q=0 refuses an encoding; an unknown path is no dashboard file", () => {
  const path = DASHBOARD_PATHS[0]!;
  expect(dashboardAnswer(path, "br;q=0, gzip")!.headers["content-encoding"]).toBe("gzip");
  expect(dashboardAnswer("/app.0000000000000000.js", "br")).toBeUndefined();
});
