// What a user configured for attention: the notification sinks, the price
// overrides and the budget defaults. Three layers, lowest first: the user's
// own `$SPEX_HOME/config.json`, the project's `spexcode.json`, its
// `spexcode.local.json`. Sinks add up across layers (a person's desktop
// notifications and the project's webhook both fire); prices and budgets
// from a higher layer replace a lower one's, key by key.
import { configLayers, userConfig } from "../config";
import { SpexError } from "../errors";
import { ATTENTION_EVENTS, type AttentionEvent, PERSON_EVENTS, isAttentionEvent } from "./events";
import { type ModelPrice, parsePrices } from "./usage/price-config";

export type { ModelPrice } from "./usage/price-config";

export type SinkKind = "command" | "webhook" | "desktop" | "tmux";

export interface NotifySink {
  kind: SinkKind;
  on: AttentionEvent[];
  /** command: the program and its arguments (never a shell string). */
  argv?: string[];
  /** webhook: an http(s) URL the payload is POSTed to. */
  url?: string;
  /** Where it was configured, for doctor and the log. */
  source: string;
}

export interface BudgetDefault {
  usd?: number;
  tokens?: number;
  hard?: boolean;
  scope?: "session" | "tree";
}

export interface AttentionConfig {
  sinks: NotifySink[];
  /** A session's notifications of one kind closer together than this are dropped (seconds). */
  minIntervalSeconds: number;
  prices: Record<string, ModelPrice>;
  budgets: { project?: BudgetDefault; groups: Record<string, BudgetDefault> };
}

const DEFAULT_MIN_INTERVAL_SECONDS = 10;

function invalid(source: string, what: string): SpexError {
  return new SpexError("config_invalid", `${source}: ${what}`, { hint: "see docs/attention.md for the notify, prices and budgets sections" });
}

function parseOn(raw: unknown, source: string): AttentionEvent[] {
  if (raw === undefined) return [...PERSON_EVENTS];
  if (!Array.isArray(raw) || raw.some((e) => typeof e !== "string")) throw invalid(source, `"on" must be a list of events (${ATTENTION_EVENTS.join(", ")})`);
  if (raw.includes("*")) return [...ATTENTION_EVENTS];
  const unknown = raw.filter((e) => !isAttentionEvent(e));
  if (unknown.length > 0) throw invalid(source, `unknown event ${unknown.join(", ")} in "on" (known: ${ATTENTION_EVENTS.join(", ")}, or "*")`);
  return raw as AttentionEvent[];
}

function parseSink(raw: unknown, source: string): NotifySink {
  if (raw === "desktop" || raw === "tmux") return { kind: raw, on: [...PERSON_EVENTS], source };
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) throw invalid(source, 'a notify entry is "desktop", "tmux" or an object with "command", "webhook" or "builtin"');
  const o = raw as Record<string, unknown>;
  const on = parseOn(o.on, source);
  const kinds = ["command", "webhook", "builtin"].filter((k) => o[k] !== undefined);
  if (kinds.length !== 1) throw invalid(source, 'a notify entry needs exactly one of "command", "webhook" or "builtin"');
  if (o.command !== undefined) {
    const argv = o.command;
    if (!Array.isArray(argv) || argv.length === 0 || argv.some((a) => typeof a !== "string") || argv[0] === "") {
      throw invalid(source, '"command" is the program and its arguments as a list of strings, e.g. ["notify-me", "--json"] (never one shell string)');
    }
    return { kind: "command", on, argv: argv as string[], source };
  }
  if (o.webhook !== undefined) {
    let url: URL | undefined;
    try {
      url = typeof o.webhook === "string" ? new URL(o.webhook) : undefined;
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) throw invalid(source, `"webhook" must be an http:// or https:// URL`);
    return { kind: "webhook", on, url: url.href, source };
  }
  if (o.builtin !== "desktop" && o.builtin !== "tmux") throw invalid(source, '"builtin" is "desktop" or "tmux"');
  return { kind: o.builtin, on, source };
}

function nonNegative(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : undefined;
}

export function parseBudgetDefault(raw: unknown, where: string, source: string): BudgetDefault {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) throw invalid(source, `${where} must be an object such as { "usd": 5 }`);
  const o = raw as Record<string, unknown>;
  const out: BudgetDefault = {};
  if (o.usd !== undefined) {
    const v = nonNegative(o.usd);
    if (v === undefined || v === 0) throw invalid(source, `${where}.usd must be a positive number`);
    out.usd = v;
  }
  if (o.tokens !== undefined) {
    const v = nonNegative(o.tokens);
    if (v === undefined || v === 0 || !Number.isInteger(v)) throw invalid(source, `${where}.tokens must be a positive whole number`);
    out.tokens = v;
  }
  if (o.hard !== undefined) out.hard = o.hard === true;
  if (o.scope !== undefined) {
    if (o.scope !== "session" && o.scope !== "tree") throw invalid(source, `${where}.scope is "session" or "tree"`);
    out.scope = o.scope;
  }
  return out;
}

/** The parts of the attention settings a caller reads; a broken part it does not read cannot fail it. */
export interface AttentionParts {
  notify: boolean;
  prices: boolean;
  budgets: boolean;
}
const ALL_PARTS: AttentionParts = { notify: true, prices: true, budgets: true };

/**
 * Read every layer; `config_invalid` names the file and the entry that is
 * wrong. `parts`: only these are parsed (a create reads the budgets alone, so
 * a wrong notify entry never stops `session new`).
 */
export function loadAttentionConfig(home: string, mainRoot: string | undefined, parts: AttentionParts = ALL_PARTS): AttentionConfig {
  const layers: { source: string; value: Record<string, unknown> }[] = [{ source: `${home}/config.json`, value: userConfig(home) }];
  if (mainRoot) {
    const [tracked, local] = configLayers(mainRoot);
    layers.push({ source: `${mainRoot}/spexcode.json`, value: tracked! }, { source: `${mainRoot}/spexcode.local.json`, value: local! });
  }
  const config: AttentionConfig = { sinks: [], minIntervalSeconds: DEFAULT_MIN_INTERVAL_SECONDS, prices: {}, budgets: { groups: {} } };
  for (const { source, value } of layers) {
    if (parts.notify && value.notify !== undefined) {
      if (!Array.isArray(value.notify)) throw invalid(source, '"notify" must be a list');
      config.sinks.push(...value.notify.map((s) => parseSink(s, source)));
    }
    const interval = nonNegative(value.notifyMinIntervalSeconds);
    if (interval !== undefined) config.minIntervalSeconds = interval;
    if (parts.prices) Object.assign(config.prices, parsePrices(value.prices, source));
    const budgets = value.budgets as Record<string, unknown> | undefined;
    if (parts.budgets && budgets !== undefined) {
      if (!budgets || typeof budgets !== "object" || Array.isArray(budgets)) throw invalid(source, '"budgets" is an object with "default" and "groups"');
      if (budgets.default !== undefined) config.budgets.project = parseBudgetDefault(budgets.default, "budgets.default", source);
      if (budgets.groups !== undefined) {
        if (!budgets.groups || typeof budgets.groups !== "object" || Array.isArray(budgets.groups)) throw invalid(source, '"budgets.groups" maps a group path to a budget');
        for (const [group, b] of Object.entries(budgets.groups as Record<string, unknown>)) config.budgets.groups[group] = parseBudgetDefault(b, `budgets.groups["${group}"]`, source);
      }
    }
  }
  return config;
}

/** The sinks that want this event. */
export function sinksFor(config: Pick<AttentionConfig, "sinks">, event: AttentionEvent): NotifySink[] {
  return config.sinks.filter((s) => s.on.includes(event));
}
