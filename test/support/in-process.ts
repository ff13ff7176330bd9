// Run the CLI in this process with in-memory streams (clipanion's own tests do
// the same): argv in, stdout/stderr/exit code out, no binary or tmux needed.
import { PassThrough } from "node:stream";
import { runCli } from "../../cmd/spex";

export interface InProcessResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runInProcess(args: string[], env: Record<string, string | undefined> = {}): Promise<InProcessResult> {
  const collect = () => {
    const stream = new PassThrough();
    const chunks: Buffer[] = [];
    stream.on("data", (c: Buffer) => chunks.push(c));
    return { stream, text: () => Buffer.concat(chunks).toString("utf8") };
  };
  const out = collect();
  const err = collect();
  const stdin = new PassThrough();
  stdin.end();
  const code = await runCli(args, { stdin, stdout: out.stream, stderr: err.stream, env: { ...env }, colorDepth: 1 });
  await new Promise((r) => setImmediate(r));
  return { code, stdout: out.text(), stderr: err.text() };
}
