// Stalls: an agent held up by its API (a rate or usage limit, a login or key
// it needs) while its row would otherwise read as working or idle. Reported
// by a hook where the harness has one (Claude Code's StopFailure names the
// error), else seen on the pane by the classifier's rules (lib/live/rules).
import type { Stall } from "./events";

/** Claude Code's StopFailure `error` values that mean a person must act. */
export function stallOfHookError(error: unknown): Stall | undefined {
  if (typeof error !== "string") return undefined;
  if (error === "rate_limit") return "rate_limited";
  if (error === "authentication_failed" || error === "billing_error") return "auth_required";
  return undefined;
}
