// Open a URL in the user's browser through the system's opener (`open` on
// macOS, `xdg-open` elsewhere), the URL as one argument: never a shell
// string. The opener runs detached; not finding one is an answer, not a
// failure (the URL is printed either way).
import { spawn } from "node:child_process";

export interface Opened {
  opened: boolean;
  /** Why nothing opened. */
  why?: string;
}

export function opener(platform = process.platform): string {
  return platform === "darwin" ? "open" : "xdg-open";
}

export function openUrl(url: string): Promise<Opened> {
  const program = opener();
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(program, [url], { detached: true, stdio: "ignore" });
    } catch (e) {
      resolve({ opened: false, why: `${program}: ${(e as Error).message}` });
      return;
    }
    child.once("error", (e: NodeJS.ErrnoException) => resolve({ opened: false, why: e.code === "ENOENT" ? `${program} is not installed` : `${program}: ${e.message}` }));
    child.once("spawn", () => {
      child.unref();
      resolve({ opened: true });
    });
  });
}
