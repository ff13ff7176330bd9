// Waiting without an event loop, for synchronous code that polls (a stop
// waiting for a pid to go, a read waiting for tmux to take an exit).

export function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
