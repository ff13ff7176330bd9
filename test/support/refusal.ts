// The SpexError a pure call throws; anything else (or no throw) fails the test.
import { SpexError } from "../../lib/errors";

export function refusal(fn: () => unknown): SpexError {
  try {
    fn();
  } catch (e) {
    if (e instanceof SpexError) return e;
    throw e;
  }
  throw new Error("expected a refusal");
}
