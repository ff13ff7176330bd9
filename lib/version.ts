// The version a user reports: the package version, and the commit and date
// the binary was built from. `make` bakes those in (bun's --define for
// bin/spex, scripts/gen-assets.ts stamp for dist/spex.cjs); run from source
// they read "unknown".
import pkg from "../package.json";

declare const __SPEX_BUILD__: { commit: string; date: string } | undefined;
const BUILD = typeof __SPEX_BUILD__ === "undefined" ? { commit: "unknown", date: "unknown" } : __SPEX_BUILD__;

export const VERSION: string = pkg.version;
export const BUILD_COMMIT: string = BUILD.commit;
export const BUILD_DATE: string = BUILD.date;

/** `spex 0.1.0 (commit 1a2b3c4d5e6f, built 2025-01-31T12:00:00Z)` */
export function versionLine(): string {
  return `spex ${VERSION} (commit ${BUILD_COMMIT}, built ${BUILD_DATE})`;
}
