// The rows as the services last listed them (null until the first listing).
import { useEffect, useState } from "react";
import type { BoardServices, BoardSnapshot } from "../../model/services";

export function useSnapshot(services: BoardServices): BoardSnapshot | null {
  const [snapshot, setSnapshot] = useState<BoardSnapshot | null>(null);
  useEffect(() => services.watch(setSnapshot), [services]);
  return snapshot;
}
