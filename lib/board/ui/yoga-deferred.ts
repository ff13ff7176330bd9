// yoga-layout as the board's bundle sees it. The package instantiates its
// WebAssembly with a top-level await, which a binary compiled to bytecode
// cannot hold (bun wraps each module in a function). Ink reads Yoga only
// when it lays out a frame, so an object filled in before the first render
// serves it: startBoard awaits layoutReady first.
import { loadYoga } from "yoga-layout/load";

const Yoga: Record<string, unknown> = {};
export default Yoga;
export * from "yoga-layout/load";

export const layoutReady: Promise<void> = loadYoga().then((loaded) => {
  Object.assign(Yoga, loaded);
});
