// Imported first by the board's component tests: Ink's colour library decides
// once, when loaded, whether to colour, and a test runner's output is no
// terminal. Forced on here, so a test can tell a coloured frame from a plain one.
if (process.env.FORCE_COLOR === undefined) process.env.FORCE_COLOR = "1";
export const ESC = "\u001b[";
