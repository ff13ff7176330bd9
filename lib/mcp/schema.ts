// Tool inputs as a few typed fields: one declaration gives both the JSON
// Schema a client shows its model and the check the server applies before a
// tool runs. A call that does not fit is refused with `usage`, as the CLI
// refuses bad flags, naming the field and what it takes. Every string has a
// bound (docs/mcp.md "Limits"), declared here so a client can see it: what a
// tool stores is carried by every listing, so no argument is taken unbounded.
import { SpexError } from "../errors";
import { characters } from "../coord/limits";

interface FieldBase {
  /** What an agent should pass, in a sentence it can act on. */
  description: string;
}

export type Field =
  | (FieldBase & { type: "string"; enum?: readonly string[]; minLength?: number; /** Characters (code points). */ maxLength: number })
  | (FieldBase & { type: "number"; minimum?: number; maximum?: number })
  | (FieldBase & { type: "integer"; minimum?: number; maximum?: number })
  | (FieldBase & { type: "boolean" })
  | (FieldBase & { type: "array"; items: { enum?: readonly string[]; maxLength: number }; minItems?: number; maxItems: number });

export interface InputShape {
  fields: Record<string, Field>;
  required?: string[];
}

export type JsonSchema = Record<string, unknown>;

function fieldSchema(f: Field): JsonSchema {
  const { description } = f;
  switch (f.type) {
    case "string":
      return { type: "string", description, ...(f.enum ? { enum: [...f.enum] } : {}), ...(f.minLength !== undefined ? { minLength: f.minLength } : {}), maxLength: f.maxLength };
    case "number":
    case "integer":
      return { type: f.type, description, ...(f.minimum !== undefined ? { minimum: f.minimum } : {}), ...(f.maximum !== undefined ? { maximum: f.maximum } : {}) };
    case "boolean":
      return { type: "boolean", description };
    case "array":
      return {
        type: "array",
        description,
        items: { type: "string", ...(f.items.enum ? { enum: [...f.items.enum] } : {}), maxLength: f.items.maxLength },
        ...(f.minItems !== undefined ? { minItems: f.minItems } : {}),
        maxItems: f.maxItems,
      };
  }
}

/** The tool's `inputSchema`: an object of the declared fields, nothing else. */
export function jsonSchemaOf(shape: InputShape): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const [name, f] of Object.entries(shape.fields)) properties[name] = fieldSchema(f);
  return { type: "object", properties, ...(shape.required?.length ? { required: [...shape.required] } : {}), additionalProperties: false };
}

function tooLong(tool: string, name: string, what: string, limit: number): SpexError {
  return new SpexError("input_too_long", `${tool}: "${name}" ${what}`, {
    hint: `see maxLength and maxItems in the inputSchema of ${tool} (tools/list); docs/mcp.md lists every limit`,
    details: { field: name, limit },
    exitCode: 2,
    httpStatus: 400,
  });
}

function usage(tool: string, message: string): SpexError {
  return new SpexError("usage", `${tool}: ${message}`, { hint: `see the inputSchema of ${tool} in tools/list`, exitCode: 2, httpStatus: 400 });
}

const kindOf = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "an array" : typeof v === "object" ? "an object" : `a ${typeof v}`);

function fits(tool: string, name: string, f: Field, v: unknown): void {
  const bad = (what: string) => usage(tool, `"${name}" ${what}`);
  switch (f.type) {
    case "string":
      if (typeof v !== "string") throw bad(`must be a string, not ${kindOf(v)}`);
      if (f.enum && !f.enum.includes(v)) throw bad(`must be one of ${f.enum.join(", ")}, not ${JSON.stringify(v.slice(0, 40))}`);
      if (f.minLength !== undefined && v.length < f.minLength) throw bad("must not be empty");
      if (v.length > f.maxLength && characters(v, f.maxLength) > f.maxLength) throw tooLong(tool, name, `is longer than ${f.maxLength} characters`, f.maxLength);
      return;
    case "number":
    case "integer":
      if (typeof v !== "number" || !Number.isFinite(v)) throw bad(`must be a number, not ${kindOf(v)}`);
      if (f.type === "integer" && !Number.isInteger(v)) throw bad("must be a whole number");
      if (f.minimum !== undefined && v < f.minimum) throw bad(`must be at least ${f.minimum}`);
      if (f.maximum !== undefined && v > f.maximum) throw bad(`must be at most ${f.maximum}`);
      return;
    case "boolean":
      if (typeof v !== "boolean") throw bad(`must be true or false, not ${kindOf(v)}`);
      return;
    case "array":
      if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) throw bad("must be a list of strings");
      if (v.length > f.maxItems) throw tooLong(tool, name, `takes at most ${f.maxItems} items`, f.maxItems);
      {
        const long = v.findIndex((x) => (x as string).length > f.items.maxLength && characters(x as string, f.items.maxLength) > f.items.maxLength);
        if (long >= 0) throw tooLong(tool, name, `item ${long + 1} is longer than ${f.items.maxLength} characters`, f.items.maxLength);
      }
      if (f.items.enum) {
        const unknown = v.filter((x) => !f.items.enum!.includes(x as string));
        if (unknown.length) throw bad(`takes only ${f.items.enum.join(", ")}; not ${unknown.slice(0, 5).join(", ")}`);
      }
      if (f.minItems !== undefined && v.length < f.minItems) throw bad(`needs at least ${f.minItems} item${f.minItems === 1 ? "" : "s"}`);
      return;
  }
}

/**
 * The arguments of a call, checked against the tool's fields: unknown names,
 * missing required ones and wrong types are refused before anything runs.
 */
export function checkArguments(tool: string, shape: InputShape, args: unknown): Record<string, unknown> {
  if (args === undefined || args === null) args = {};
  if (typeof args !== "object" || Array.isArray(args)) throw usage(tool, `arguments must be an object, not ${kindOf(args)}`);
  const given = args as Record<string, unknown>;
  const unknown = Object.keys(given).filter((k) => !Object.hasOwn(shape.fields, k));
  if (unknown.length) throw usage(tool, `unknown argument${unknown.length > 1 ? "s" : ""} ${unknown.map((k) => JSON.stringify(k.slice(0, 40))).join(", ")} (it takes ${Object.keys(shape.fields).join(", ") || "none"})`);
  for (const name of shape.required ?? []) if (given[name] === undefined) throw usage(tool, `"${name}" is required`);
  const out: Record<string, unknown> = {};
  for (const [name, v] of Object.entries(given)) {
    if (v === undefined) continue;
    fits(tool, name, shape.fields[name]!, v);
    out[name] = v;
  }
  return out;
}
