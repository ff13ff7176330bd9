// Stands in for react-devtools-core in the board's bundle (scripts/build-board.ts):
// Ink reaches for it only when DEV=true, which the loader clears while importing.
export default { initialize(): void {}, connectToDevTools(): void {} };
