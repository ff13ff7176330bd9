// What an option's value is called in help (`--session <id>`, not clipanion's
// `--session #0`). One table for every command, so a new option needs no
// change here: an unlisted `--x-file` reads `<file>`, any other `--x` reads `<x>`.

const PLACEHOLDERS: Record<string, string> = {
  "--session": "id",
  "--parent": "id",
  "--to": "id",
  "--watcher": "id",
  "--from": "sender",
  "--launcher": "name",
  "--name": "name",
  "--cursor": "name",
  "--adapter": "harness",
  "--api": "url",
  "--base": "rev",
  "--body": "text",
  "--note": "text",
  "--keys": "keys",
  "--dir": "path",
  "--worktree": "path",
  "--project": "slug|path",
  "--machine": "host",
  "--host": "address",
  "--group": "group",
  "--status": "list",
  "--depends-on": "ids",
  "--propose": "merge|nothing|close",
  "--then": "archive|stop",
  "--thread": "id",
  "--tmux": "session",
  "--ttl": "duration",
  "--history": "lines",
  "--timeout": "seconds",
  "--interval": "seconds",
  "--jitter": "ms",
  "--patience": "ms",
  "--concurrency": "n",
  "--count": "n",
  "--limit": "n",
  "--max-active-agents": "n",
  "--max-load1": "load",
  "--max-load-per-core": "load",
};

/** The placeholder of an option's value, angle brackets included. */
export function placeholderOf(names: string[]): string {
  const long = names.find((n) => n.startsWith("--")) ?? names[0] ?? "";
  const known = PLACEHOLDERS[long];
  if (known) return `<${known}>`;
  if (long.endsWith("-file")) return "<file>";
  return `<${long.replace(/^-+/, "") || "value"}>`;
}

/** Rewrite clipanion's `--x #0` (and `--x,-y #0 #1`) into `--x <value>` wherever it appears in usage text. */
export function withPlaceholders(usage: string): string {
  return usage.replace(/((?:-{1,2}[A-Za-z][\w-]*,)*-{1,2}[A-Za-z][\w-]*)((?: #\d+)+)/g, (_, names: string, slots: string) => {
    const placeholder = placeholderOf(names.split(","));
    return `${names}${slots.replace(/#\d+/g, placeholder)}`;
  });
}

/**
 * Name clipanion's bare `...` (any number of positionals): `[SEL...]`, or
 * `<SEL>...` when at least one is required (clipanion lists that one as `<SEL>` just before).
 */
export function withRestName(usage: string, name: string | undefined): string {
  if (!name) return usage;
  return usage.replace(/(?:( <([^<> ]+)>))? \.\.\.(?= |$)/, (_, required: string | undefined, requiredName: string | undefined) =>
    required && requiredName === name ? ` <${name}>...` : `${required ?? ""} [${name}...]`,
  );
}
