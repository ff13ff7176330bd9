// What a command accepts, read from its clipanion option declarations by
// replaying them against a recording builder (the way clipanion itself
// registers a command). Help, "did you mean" and completion all start from
// this one description, so none of them parses usage text. Nothing here loads
// clipanion (the help and completion paths run without it): a class carries
// clipanion's option marker itself, as its inherited static `isOption`.
import type { Command, CommandClass } from "clipanion";

export interface OptionShape {
  names: string[];
  /** How many values follow the option (0 for a switch). */
  arity: number;
  hidden: boolean;
  description: string;
}

export interface CommandShape {
  paths: string[][];
  /** Undocumented commands (the hook-facing `internal` ones) are left out of help. */
  hidden: boolean;
  category: string;
  description: string;
  options: OptionShape[];
  /** Positionals in order; `required` false is optional, `rest` takes any number. */
  positionals: { name: string; required: boolean; rest: boolean }[];
}

type OptionSpec = { definition: (builder: unknown, key: string) => void };

const shapes = new WeakMap<CommandClass<any>, CommandShape>();

export function shapeOf(klass: CommandClass<any>): CommandShape {
  const known = shapes.get(klass);
  if (known) return known;
  const shape: CommandShape = {
    paths: klass.paths ?? [],
    hidden: klass.usage === undefined,
    category: klass.usage?.category ?? "",
    description: klass.usage?.description ?? "",
    options: [],
    positionals: [],
  };
  const recorder = {
    addPositional({ name = "arg", required = true }: { name?: string; required?: boolean } = {}) {
      shape.positionals.push({ name, required, rest: false });
    },
    addRest({ name = "arg", required = 0 }: { name?: string; required?: number } = {}) {
      for (let i = 0; i < required; i++) shape.positionals.push({ name, required: true, rest: false });
      shape.positionals.push({ name, required: false, rest: true });
    },
    addProxy() {
      shape.positionals.push({ name: "arg", required: false, rest: true });
    },
    addOption({ names, arity = 0, hidden = false, description = "" }: { names: string[]; arity?: number; hidden?: boolean; description?: string }) {
      shape.options.push({ names, arity, hidden, description });
    },
  };
  const isOption = (klass as unknown as typeof Command).isOption;
  const instance = new klass() as unknown as Record<string, unknown>;
  for (const key in instance) {
    const value = instance[key] as Record<symbol, unknown> | null;
    if (typeof value === "object" && value !== null && value[isOption]) (value as unknown as OptionSpec).definition(recorder, key);
  }
  shapes.set(klass, shape);
  return shape;
}

/** The option of a command a typed word names (`--x` or `--x=value`), if any (completion's smaller table has options of names and arity too). */
export function optionNamed<O extends Pick<OptionShape, "names" | "arity">>(shape: { options: O[] }, word: string): O | undefined {
  const name = word.split("=")[0]!;
  const direct = shape.options.find((o) => o.names.includes(name));
  if (direct || !name.startsWith("--no-")) return direct;
  // clipanion accepts `--no-x` for every switch `--x`.
  return shape.options.find((o) => o.arity === 0 && o.names.includes(`--${name.slice(5)}`));
}

/** The most positionals a command takes (Infinity with a rest). */
export function maxPositionals(shape: CommandShape): number {
  return shape.positionals.some((p) => p.rest) ? Infinity : shape.positionals.length;
}

export interface ArgSplit {
  positionals: string[];
  /** Option-like words the command does not declare. */
  unknownOptions: string[];
  /** Options that take a value but were not given one. */
  valueMissing: string[];
  /** The declared options as typed, with their values, in order. */
  known: string[];
}

/**
 * The words after a command's path split into positionals and option words, the
 * way clipanion reads them: an option with a value takes the next word unless
 * written `--x=value`, and everything after `--` is positional.
 */
export function splitArgs(shape: CommandShape, rest: string[]): ArgSplit {
  const positionals: string[] = [];
  const unknownOptions: string[] = [];
  const valueMissing: string[] = [];
  const known: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const w = rest[i]!;
    if (w === "--") {
      positionals.push(...rest.slice(i + 1));
      break;
    }
    if (w === "-" || !w.startsWith("-")) {
      positionals.push(w);
      continue;
    }
    if (w === "-h" || w === "--help") continue;
    const option = optionNamed(shape, w);
    if (!option) {
      unknownOptions.push(w);
      continue;
    }
    known.push(w);
    if (option.arity > 0 && !w.includes("=")) {
      const next = rest[i + 1];
      if (next === undefined || (next.startsWith("-") && next !== "-")) valueMissing.push(w);
      else {
        known.push(...rest.slice(i + 1, i + 1 + option.arity));
        i += option.arity;
      }
    }
  }
  return { positionals, unknownOptions, valueMissing, known };
}
