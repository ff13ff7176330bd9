// Keys as a terminal sends them, for ink-testing-library's stdin, and a wait
// for the frame to show something (Ink reads input on its next turn: polled, never slept on).
import { waitFor } from "../../../test/support/sandbox";
import { plain } from "./test-rows";

export const KEY = { enter: "\r", altEnter: "\u001b\r", escape: "\u001b", backspace: "\u007f", up: "\u001b[A", down: "\u001b[B", left: "\u001b[D", right: "\u001b[C", tab: "\t", ctrlC: "\u0003" };

export async function frameWith(lastFrame: () => string | undefined, text: string | RegExp, what = String(text)): Promise<string> {
  try {
    return await waitFor(
    () => {
      const f = plain(lastFrame());
      return (typeof text === "string" ? f.includes(text) : text.test(f)) ? f : undefined;
    },
      `a frame with ${what}`,
      4000,
      5,
    );
  } catch (e) {
    throw new Error(`${(e as Error).message}; the last frame:\n${plain(lastFrame())}`);
  }
}

/** Ink starts reading keys in an effect after the first frame: wait until it listens before typing. */
export async function listening(stdin: { listenerCount(event: string): number }): Promise<void> {
  await waitFor(() => stdin.listenerCount("readable") > 0 || stdin.listenerCount("data") > 0, "Ink to read keys", 5000, 2);
}

/** Wait until the frame no longer shows `text` (a dialog closed). */
export async function frameWithout(lastFrame: () => string | undefined, text: string): Promise<string> {
  return waitFor(() => (plain(lastFrame()).includes(text) ? undefined : plain(lastFrame())), `a frame without ${text}`, 4000, 5);
}
