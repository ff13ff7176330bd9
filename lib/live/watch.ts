// `live --watch`: observe, hand the observation over, wait, repeat, until the
// count is reached or the process is interrupted.
import { type LiveFilters, type LiveObservation, type ObserveOptions, observeLive } from "./observe";

export async function watchLive(
  filters: LiveFilters,
  every: { intervalMs: number; count?: number },
  onObservation: (obs: LiveObservation) => void,
  opts: ObserveOptions = {},
): Promise<void> {
  for (let n = 0; every.count === undefined || n < every.count; n++) {
    if (n > 0) await new Promise((r) => setTimeout(r, every.intervalMs));
    onObservation(await observeLive(filters, opts));
  }
}
