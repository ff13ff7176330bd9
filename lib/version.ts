// The version a user reports: the package version, and the commit and date
// the binary was built from (lib/generated/build.ts, written by `make`).
import pkg from "../package.json";
import { BUILD } from "./generated/build";

export const VERSION: string = pkg.version;
export const BUILD_COMMIT: string = BUILD.commit;
export const BUILD_DATE: string = BUILD.date;

/** `spex 0.1.0 (commit 1a2b3c4d5e6f, built 2025-01-31T12:00:00Z)` */
export function versionLine(): string {
  return `spex ${VERSION} (commit ${BUILD_COMMIT}, built ${BUILD_DATE})`;
}
