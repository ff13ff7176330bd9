// The clock the ages are drawn from, ticking slowly: an idle board draws a frame only when an age changes.
import { useEffect, useState } from "react";

export function useNow(everyMs = 10_000, fixed?: number): number {
  const [now, setNow] = useState(() => fixed ?? Date.now());
  useEffect(() => {
    if (fixed !== undefined) return;
    const t = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(t);
  }, [everyMs, fixed]);
  return fixed ?? now;
}
