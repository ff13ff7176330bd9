// SPEX_HOME holds prompts, notes, message texts and last screens: the very
// content the backend refuses to serve without its token (DESIGN.md §13,
// another local user). So it is the user's alone: made 0700, tightened to
// 0700 when an older spex left it 0755 (readable by anyone who can enter the
// home above it), and refused when another user owns it or may write it:
// whoever can write there could plant the hook scripts spex runs.
import { chmodSync, mkdirSync, statSync } from "node:fs";
import { SpexError } from "../errors";

const checked = new Set<string>();

function unsafeHome(home: string, why: string): SpexError {
  return new SpexError("spex_home_unsafe", `SPEX_HOME ${home} ${why}; spex keeps prompts, messages and screens there and does not use it`, {
    hint: "point SPEX_HOME at a folder of your own that only you can write (the default is ~/.spex)",
    details: { home },
  });
}

/** Make sure `home` is the caller's own and closed to other users. Once per process per home. */
export function securePrivateStore(home: string): void {
  if (checked.has(home)) return;
  const uid = process.getuid?.();
  mkdirSync(home, { recursive: true, mode: 0o700 });
  // SPEX_HOME may be reached through a link (issue 10): what it names is what counts.
  const st = statSync(home);
  if (!st.isDirectory()) throw unsafeHome(home, "is not a folder");
  if (uid !== undefined && st.uid !== uid) throw unsafeHome(home, `belongs to uid ${st.uid}, not to you (uid ${uid})`);
  if (st.mode & 0o022) throw unsafeHome(home, `may be written by other users (mode ${(st.mode & 0o777).toString(8).padStart(4, "0")})`);
  // mkdir's mode passes through the umask, and older versions left it 0755: close it either way.
  if (st.mode & 0o077) chmodSync(home, 0o700);
  checked.add(home);
}
