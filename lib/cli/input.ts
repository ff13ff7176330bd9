// Text that arrives through a file or stdin (`--note-file F|-`,
// `--prompt-file F|-`) so any bytes, NUL included, can be carried.
import { readFileSync } from "node:fs";
import type { Readable } from "node:stream";
import { SpexError, errnoCode } from "../errors";

export async function readAllBytes(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

/** The bytes of a file, or of stdin for `-`. */
export async function readSourceBytes(source: string, stdin: Readable): Promise<Buffer> {
  if (source === "-") return readAllBytes(stdin);
  try {
    return readFileSync(source);
  } catch (e) {
    throw new SpexError("input_unreadable", `cannot read ${source}: ${(e as Error).message}`, {
      hint: errnoCode(e) === "ENOENT" ? "check the path" : "check the file's permissions",
    });
  }
}

/** Exactly one of an inline text and a file source; undefined when neither is given. */
export async function textFrom(
  inline: string | undefined,
  file: string | undefined,
  stdin: Readable,
  what: string,
): Promise<string | undefined> {
  if (inline !== undefined && file !== undefined) {
    throw new SpexError("usage", `give the ${what} inline or with --${what}-file, not both`, { exitCode: 2 });
  }
  if (file !== undefined) return (await readSourceBytes(file, stdin)).toString("utf8");
  return inline;
}
