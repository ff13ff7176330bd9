// When the board's layout engine is ready. Run from source (tests, bun run),
// yoga-layout's own top-level await has finished before this module loads.
// The bundle (scripts/build-board.ts) puts yoga-deferred.ts in its place.
export const layoutReady: Promise<void> = Promise.resolve();
