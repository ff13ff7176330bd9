// TOML basic strings, as spex writes them into Codex's config files (the
// user's own $CODEX_HOME/config.toml among them, where a string TOML refuses
// breaks every Codex run, not only spex's). JSON's escapes are TOML's, except
// that TOML also refuses a raw DEL (U+007F), which JSON leaves as it is.
export const tomlString = (s: string): string => JSON.stringify(s).replace(/\x7f/g, "\\u007f");

export const tomlList = (xs: readonly string[]): string => `[${xs.map(tomlString).join(", ")}]`;
