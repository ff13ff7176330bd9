// The board's screen as a module of its own (dist/board.mjs, see
// scripts/build-board.ts): `spex board` loads it with the services it needs
// (lib/board/index.ts) and this draws them with Ink on the alternate screen.
import { render } from "ink";
import type { BoardServices } from "../model/services";
import { App } from "./components/App";
import { AlternateScreen, guardTerminal } from "./terminal";
import { layoutReady } from "./layout";

export interface BoardOptions {
  color: boolean;
  archived: boolean;
  stdout: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
  stderr: NodeJS.WriteStream;
}

export async function startBoard(services: BoardServices, opts: BoardOptions): Promise<number> {
  await layoutReady;
  const screen = new AlternateScreen({ stdout: opts.stdout, stdin: opts.stdin });
  let app: ReturnType<typeof render> | undefined;
  const unguard = guardTerminal(screen, () => app?.unmount());
  screen.enter();
  /** Outside tmux an attach needs this terminal: leave the alternate screen, let tmux have it, then draw again from scratch. */
  const suspend = (run: () => number): number => {
    screen.leave();
    try {
      return run();
    } finally {
      screen.enter();
      if (opts.stdin.isTTY) opts.stdin.setRawMode(true);
      // Ink would otherwise draw only the lines that differ from its last frame, on a screen now blank.
      app?.clear();
    }
  };
  try {
    app = render(<App services={services} color={opts.color} archived={opts.archived} suspend={suspend} />, {
      stdout: opts.stdout,
      stdin: opts.stdin,
      stderr: opts.stderr,
      exitOnCtrlC: false,
      patchConsole: false,
      // A key must reach the screen within a frame: 60 a second keeps that under 17 ms.
      maxFps: 60,
    });
    await app.waitUntilExit();
    return 0;
  } finally {
    app?.unmount();
    screen.leave();
    unguard();
  }
}
