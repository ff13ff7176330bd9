// The shape both lock guards share (lib/lock/guard.ts picks one).
export interface Guard {
  release(): Promise<void>;
}

/** One attempt: the guard, or undefined while another process holds it. */
export type TryGuard = (lockPath: string) => Promise<Guard | undefined>;
