// stop, close and archive --stop on a terminal: once the agent has not ended
// at once, one line on stderr says what is being waited for and how long at
// most. Never on a pipe and never with --json (scripts read the result).
import type { Writable } from "node:stream";
import type { WaitNotice } from "../teardown/leaf";
import { describeWait } from "../teardown/describe";
import { printable } from "./output";

export function waitNoticeFor(stderr: Writable, json: boolean, id: string): ((n: WaitNotice) => void) | undefined {
  if (json || !(stderr as Writable & { isTTY?: boolean }).isTTY) return undefined;
  return (n) => stderr.write(`spex: ${printable(describeWait(id, n))}\n`);
}
