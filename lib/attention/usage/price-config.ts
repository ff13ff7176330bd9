// The `prices` section of the configuration (USD per million tokens, per
// model), read here so that usage (which rows and `ls` read) depends on the
// configuration files alone.
import { configLayers, userConfig } from "../../config";
import { SpexError } from "../../errors";

/** USD per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

function nonNegative(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : undefined;
}

function invalid(source: string, what: string): SpexError {
  return new SpexError("config_invalid", `${source}: ${what}`, { hint: "see docs/attention.md for the prices section" });
}

/** One layer's `prices`; `config_invalid` names the file and the model. */
export function parsePrices(raw: unknown, source: string): Record<string, ModelPrice> {
  if (raw === undefined) return {};
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) throw invalid(source, '"prices" maps a model name to its prices');
  const out: Record<string, ModelPrice> = {};
  for (const [model, price] of Object.entries(raw as Record<string, unknown>)) {
    const o = (price && typeof price === "object" ? price : {}) as Record<string, unknown>;
    const input = nonNegative(o.input);
    const output = nonNegative(o.output);
    if (input === undefined || output === undefined) throw invalid(source, `prices["${model}"] needs "input" and "output" (USD per million tokens)`);
    // Without cache prices given, a cache read costs what providers charge most often (a tenth of input), a cache write what input does.
    out[model] = { input, output, cacheRead: nonNegative(o.cacheRead) ?? input / 10, cacheWrite: nonNegative(o.cacheWrite) ?? input };
  }
  return out;
}

/** The price overrides in force: the user's, then the project's, then its local file (later wins, model by model). */
export function loadPrices(home: string, mainRoot: string | undefined): Record<string, ModelPrice> {
  const layers: [string, Record<string, unknown>][] = [[`${home}/config.json`, userConfig(home)]];
  if (mainRoot) {
    const [tracked, local] = configLayers(mainRoot);
    layers.push([`${mainRoot}/spexcode.json`, tracked!], [`${mainRoot}/spexcode.local.json`, local!]);
  }
  const out: Record<string, ModelPrice> = {};
  for (const [source, value] of layers) Object.assign(out, parsePrices(value.prices, source));
  return out;
}

/** The overrides, or none when the configuration cannot be read (a listing must not fail on it; doctor reports it). */
export function pricesOrDefaults(home: string, mainRoot: string | undefined): Record<string, ModelPrice> {
  try {
    return loadPrices(home, mainRoot);
  } catch {
    return {};
  }
}
