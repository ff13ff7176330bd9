// Why an argv did not parse, in the user's words: an unknown verb or option
// with the nearest known one, a text argument that starts with `-`, too many
// or too few arguments. Pure over the command shapes; clipanion's own message
// is the fallback when none of these applies.
import { SpexError } from "../errors";
import { isNamespace, nextWords } from "./namespaces";
import { type CommandShape, maxPositionals, splitArgs } from "./shape";
import { nearest, orList } from "./suggest";
import { shellWord } from "../tmux/quote";

const usage = (message: string, hint: string) => new SpexError("usage", message, { hint, exitCode: 2 });

/** Options that may stand alone and take a value only as `--option=VALUE`, with the values they know. */
const EQUALS_ONLY: Record<string, string[]> = { "--sandbox": ["on", "no-network", "off"] };

/** The leading words of an argv, up to its first option. */
export function leadingWords(args: string[]): string[] {
  const words: string[] = [];
  for (const a of args) {
    if (a.startsWith("-")) break;
    words.push(a);
  }
  return words;
}

/** The documented command whose path is the longest prefix of `words`. */
export function matchCommand(shapes: CommandShape[], words: string[]): { shape: CommandShape; path: string[] } | undefined {
  let best: { shape: CommandShape; path: string[] } | undefined;
  for (const s of shapes) {
    for (const p of s.paths) {
      if (p.length > 0 && p.length <= words.length && p.every((w, i) => words[i] === w) && (!best || p.length > best.path.length)) best = { shape: s, path: p };
    }
  }
  return best;
}

/** A positional that holds free text (a prompt, a message), named as prose; undefined for selectors, ids, paths. */
function textArgument(name: string | undefined): string | undefined {
  return name !== undefined && /^(prompt|message|name|title|note|body)$/i.test(name) ? name.toLowerCase() : undefined;
}

function unknownVerb(shapes: CommandShape[], words: string[], args: string[]): SpexError {
  let depth = 0;
  while (depth < words.length && isNamespace(shapes, words.slice(0, depth + 1))) depth++;
  const prefix = words.slice(0, depth);
  const typed = words[depth];
  const where = ["spex", ...prefix].join(" ");
  const lists = depth === 0 ? "`spex help` lists every command" : `\`${where}\` lists its verbs`;
  // Every message follows "spex: ", so none starts with "spex" again.
  if (typed === undefined) return usage(`a verb is missing after \`${where}\``, lists);
  const next = nextWords(shapes, prefix);
  const candidates = [...next.map((n) => n.word), ...(depth === 0 ? ["help"] : [])];
  // One suggestion per command: `ls` and its alias `list` are the same verb.
  const near = nearest(typed, candidates).filter((w, i, all) => {
    const owner = next.find((n) => n.word === w)?.command;
    return !owner || all.findIndex((o) => next.find((n) => n.word === o)?.command === owner) === i;
  });
  // The rest, options too (a dropped --dry-run would make the fix do more than
  // what was typed), retyped word by word as the user's shell had it: joined
  // bare, a quoted `fix it; rm x` would come back as two commands.
  const rest = args.slice(depth + 1).map(shellWord).join(" ");
  const fixes = near.map((w) => [where, w, rest].filter(Boolean).join(" "));
  return usage(`unknown command "${[where, typed, rest].filter(Boolean).join(" ")}"`, near.length > 0 ? `did you mean ${orList(fixes)}? ${lists}` : lists);
}

/** A specific reason `args` fail to parse, or undefined to fall back on clipanion's. */
export function diagnoseArgs(shapes: CommandShape[], args: string[]): SpexError | undefined {
  const words = leadingWords(args);
  const match = matchCommand(shapes, words);
  if (!match) return unknownVerb(shapes, words, args);
  const { shape, path } = match;
  const verb = `spex ${path.join(" ")}`;
  // A message follows "spex: ", so it names the verb without the program again (hints keep it: they are pasted).
  const named = path.join(" ");
  const help = `see \`${verb} --help\``;
  const { positionals, unknownOptions, valueMissing, known } = splitArgs(shape, args.slice(path.length));
  const retyped = (...tail: string[]) => [verb, ...known.map(shellWord), ...tail].join(" ");
  const max = maxPositionals(shape);
  const last = shape.positionals[shape.positionals.length - 1];
  const text = textArgument(last?.name);
  if (unknownOptions.length > 0) {
    const typed = unknownOptions[0]!;
    const options = shape.options.filter((o) => !o.hidden).flatMap((o) => o.names);
    const near = nearest(typed.split("=")[0]!, options);
    if (near.length > 0) return usage(`unknown option ${typed} for ${verb}`, `did you mean ${orList(near)}?`);
    if (text) {
      const fixed = retyped(...positionals.map(shellWord), "--", shellWord(typed));
      return usage(`${shellWord(typed)} is not an option of ${verb}`, `a ${text} that starts with "-" goes after \`--\`: ${fixed}`);
    }
    return usage(`unknown option ${typed} for ${verb}`, help);
  }
  if (valueMissing.length > 0) {
    const option = valueMissing[0]!;
    return usage(`${option} needs a value`, `a value that starts with "-" is written ${option}=VALUE; ${help}`);
  }
  // An option whose value is optional (`--sandbox`, alone or `=no-network`) takes it only after "=":
  // `--sandbox no-network` left the word as a positional.
  const glued = args.findIndex((a, i) => EQUALS_ONLY[a]?.includes(args[i + 1] ?? "") ?? false);
  if (positionals.length > max && glued >= 0) {
    const [option, value] = [args[glued]!, args[glued + 1]!];
    return usage(`${option} takes its value after "=": ${option} ${value} reads as ${option} and a word`, `write ${option}=${value}; ${help}`);
  }
  if (positionals.length > max) {
    const extra = positionals.slice(Math.max(0, max - 1));
    if (text && max > 0) {
      const fixed = retyped(...positionals.slice(0, max - 1).map(shellWord), shellWord(extra.join(" ")));
      return usage(`${named} takes one ${text}, got ${extra.length} words: ${extra.map(shellWord).join(" ")}`, `quote the ${text} so it is one argument: ${fixed}`);
    }
    const takes = max === 0 ? "no arguments" : shape.positionals.map((p) => (p.required ? `<${p.name}>` : `[${p.name}]`)).join(" ");
    return usage(`${named} takes ${takes}, got ${positionals.map(shellWord).join(" ")}`, help);
  }
  const required = shape.positionals.filter((p) => p.required);
  if (positionals.length < required.length) {
    const missing = required.slice(positionals.length).map((p) => `<${p.name}>`);
    return usage(`${named} needs ${missing.join(" ")}`, help);
  }
  return undefined;
}
