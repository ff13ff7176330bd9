// Spawn options (issue 13 item 6, seed 002's Model/Effort): one vocabulary for
// every front (`--model`, `--effort`), each harness mapping it onto its own
// flags. Checked before anything is made: a harness without the option, a
// value that would read as a flag, or an effort level the CLI does not know
// is a usage error naming what would be accepted.
import { SpexError } from "../errors";
import type { HarnessAdapter, HarnessName, SpawnOptions } from "./types";

// Model names: provider ids, aliases, paths like `openai/gpt-oss-120b`, Bedrock ids with `:`.
const MODEL = /^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,199}$/;

function usage(message: string, hint: string): SpexError {
  return new SpexError("usage", message, { hint, exitCode: 2, httpStatus: 400 });
}

/** The harnesses (in `adapters`) that take an option. */
function takers(adapters: readonly HarnessAdapter[], has: (a: HarnessAdapter) => boolean): HarnessName[] {
  return adapters.filter(has).map((a) => a.name);
}

/**
 * The spawn options a create (or a relaunch) will pass to `adapter`, checked.
 * Empty strings mean "not asked for" and are dropped.
 */
export function checkSpawnOptions(adapter: HarnessAdapter, all: readonly HarnessAdapter[], options: SpawnOptions): SpawnOptions {
  const out: SpawnOptions = {};
  if (options.model) {
    if (!adapter.spawn.model) {
      throw usage(`--model is not something the ${adapter.name} harness takes`, `use a launcher whose harness takes it: ${takers(all, (a) => a.spawn.model).join(", ")}`);
    }
    if (!MODEL.test(options.model)) {
      throw usage(`"${options.model}" is not a model name`, "letters, digits and . _ : / @ + - only, not starting with - (e.g. sonnet, gpt-5-codex, gemini-2.5-flash)");
    }
    out.model = options.model;
  }
  if (options.effort) {
    const levels = adapter.spawn.effort;
    if (!levels) {
      throw usage(`--effort is not something the ${adapter.name} harness takes`, `use a launcher whose harness takes it: ${takers(all, (a) => a.spawn.effort !== undefined).join(", ")}`);
    }
    if (!levels.includes(options.effort)) {
      throw usage(`${adapter.name} takes --effort ${levels.join(", ")}, not "${options.effort}"`, `pick one of ${levels.join(", ")}`);
    }
    out.effort = options.effort;
  }
  return out;
}
