// Crash seams for the terminal-manners proofs (test/integration/board-crash.test.ts),
// in the manner of lib/faults.ts: SPEX_TEST_THROW_AT names where the board
// throws, on the first key pressed. `board-key`: in the key handler (an error
// outside React's rendering, uncaught); `board-render`: in the render that
// key causes (React's error path). Outside tests it is unset.
const at = process.env.SPEX_TEST_THROW_AT;
let renderArmed = false;

/** Called with each key the board reads. */
export function keyFault(): void {
  if (at === "board-key") throw new Error("test fault: thrown in the key handler (SPEX_TEST_THROW_AT=board-key)");
  if (at === "board-render") renderArmed = true;
}

/** Called in each render of the board. */
export function renderFault(): void {
  if (renderArmed) throw new Error("test fault: thrown while rendering (SPEX_TEST_THROW_AT=board-render)");
}
