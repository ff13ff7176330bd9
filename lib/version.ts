// The version a user reports: the package version, the commit and date the
// binary was built from, and what it was built for. `make` bakes the commit
// and date in (bun's --define for bin/spex, scripts/gen-assets.ts stamp for
// dist/spex.cjs); `make release` adds the target of each cross-compiled
// binary. Without a baked target, a compiled binary names the platform it
// runs on (which is the one it was built for) and the bundle names Node.
// Run from source they read "unknown".
import pkg from "../package.json";

declare const __SPEX_BUILD__: { commit: string; date: string; target?: string } | undefined;
const BUILD = typeof __SPEX_BUILD__ === "undefined" ? { commit: "unknown", date: "unknown" } : __SPEX_BUILD__;

export const VERSION: string = pkg.version;
export const BUILD_COMMIT: string = BUILD.commit;
export const BUILD_DATE: string = BUILD.date;
/** `linux-x64`, `darwin-arm64` … for a standalone binary, `node` for the bundle. */
export const BUILD_TARGET: string = BUILD.target ?? (typeof Bun !== "undefined" ? `${process.platform}-${process.arch}` : "node");

/** `spex 0.1.0 (commit 1a2b3c4d5e6f, built 2025-01-31T12:00:00Z, for linux-x64)` */
export function versionLine(): string {
  return `spex ${VERSION} (commit ${BUILD_COMMIT}, built ${BUILD_DATE}, for ${BUILD_TARGET})`;
}
