// Tool inputs: one field declaration gives the JSON Schema a client shows and
// the check the server applies; a call that does not fit is `usage`.
import { describe, expect, test } from "bun:test";
import { checkArguments, jsonSchemaOf, type InputShape } from "../../lib/mcp/schema";
import { TOOLS } from "../../lib/mcp/tools";
import { SpexError } from "../../lib/errors";

const shape: InputShape = {
  fields: {
    id: { type: "string", description: "an id", minLength: 1, maxLength: 8 },
    mode: { type: "string", description: "a mode", enum: ["a", "b"], maxLength: 1 },
    n: { type: "integer", description: "a count", minimum: 0, maximum: 5 },
    s: { type: "number", description: "seconds", maximum: 300 },
    on: { type: "boolean", description: "a switch" },
    list: { type: "array", description: "names", items: { enum: ["x", "y"], maxLength: 1 }, minItems: 1, maxItems: 3 },
    words: { type: "array", description: "words", items: { maxLength: 4 }, maxItems: 2 },
  },
  required: ["id"],
};

function refusal(args: unknown, code = "usage"): string {
  try {
    checkArguments("demo", shape, args);
  } catch (e) {
    expect(e).toBeInstanceOf(SpexError);
    expect((e as SpexError).code).toBe(code);
    return (e as SpexError).message;
  }
  throw new Error("expected a refusal");
}

describe("tool input schemas", () => {
  test("the JSON Schema names every field with its description, constraints and required list, and nothing else is allowed", () => {
    expect(jsonSchemaOf(shape)).toEqual({
      type: "object",
      properties: {
        id: { type: "string", description: "an id", minLength: 1, maxLength: 8 },
        mode: { type: "string", description: "a mode", enum: ["a", "b"], maxLength: 1 },
        n: { type: "integer", description: "a count", minimum: 0, maximum: 5 },
        s: { type: "number", description: "seconds", maximum: 300 },
        on: { type: "boolean", description: "a switch" },
        list: { type: "array", description: "names", items: { type: "string", enum: ["x", "y"], maxLength: 1 }, minItems: 1, maxItems: 3 },
        words: { type: "array", description: "words", items: { type: "string", maxLength: 4 }, maxItems: 2 },
      },
      required: ["id"],
      additionalProperties: false,
    });
  });

  test("arguments that fit come back as given; absent arguments are {}", () => {
    expect(checkArguments("demo", shape, { id: "t1", mode: "a", n: 2, s: 1.5, on: false, list: ["x"] })).toEqual({ id: "t1", mode: "a", n: 2, s: 1.5, on: false, list: ["x"] });
    expect(checkArguments("demo", { fields: {} }, undefined)).toEqual({});
  });

  test("each kind of misfit is refused with a message naming the field", () => {
    expect(refusal({})).toContain('"id" is required');
    expect(refusal({ id: "" })).toContain('"id" must not be empty');
    expect(refusal({ id: 3 })).toContain('"id" must be a string, not a number');
    expect(refusal({ id: "t", mode: "c" })).toContain('"mode" must be one of a, b');
    expect(refusal({ id: "t", n: 1.5 })).toContain('"n" must be a whole number');
    expect(refusal({ id: "t", n: 6 })).toContain('"n" must be at most 5');
    expect(refusal({ id: "t", s: "60" })).toContain('"s" must be a number');
    expect(refusal({ id: "t", on: "yes" })).toContain('"on" must be true or false');
    expect(refusal({ id: "t", list: "x" })).toContain('"list" must be a list of strings');
    expect(refusal({ id: "t", list: [] })).toContain('"list" needs at least 1 item');
    expect(refusal({ id: "t", list: ["z"] })).toContain('"list" takes only x, y; not z');
    expect(refusal({ id: "t", other: 1 })).toContain('unknown argument "other"');
    expect(refusal([1])).toContain("arguments must be an object");
    // Names an object inherits are no arguments.
    expect(refusal({ id: "t", constructor: "x" })).toContain('unknown argument "constructor"');
  });

  test("a string or a list past its bound is refused with input_too_long, counted in characters (issue 21 item 8)", () => {
    expect(checkArguments("demo", shape, { id: "😀😀😀😀😀😀😀😀", words: ["ab", "abcd"] })).toMatchObject({ id: "😀😀😀😀😀😀😀😀" });
    expect(refusal({ id: "123456789" }, "input_too_long")).toContain('"id" is longer than 8 characters');
    expect(refusal({ id: "x".repeat(5_000_000) }, "input_too_long")).toContain('"id" is longer than 8 characters');
    expect(refusal({ id: "t", list: ["x", "y", "x", "y"] }, "input_too_long")).toContain('"list" takes at most 3 items');
    expect(refusal({ id: "t", words: ["ok", "toolong"] }, "input_too_long")).toContain('"words" item 2 is longer than 4 characters');
  });

  test("every string a served tool takes has a bound, and every list a bound on its items and their length", () => {
    for (const t of TOOLS) {
      for (const [field, f] of Object.entries(t.input.fields)) {
        const bounded = f.type === "string" ? f.maxLength > 0 : f.type === "array" ? f.maxItems > 0 && f.items.maxLength > 0 : true;
        expect({ tool: t.name, field, bounded }).toEqual({ tool: t.name, field, bounded: true });
        const schema = jsonSchemaOf(t.input).properties as Record<string, any>;
        if (f.type === "string") expect(schema[field].maxLength).toBe(f.maxLength);
        if (f.type === "array") expect([schema[field].maxItems, schema[field].items.maxLength]).toEqual([f.maxItems, f.items.maxLength]);
      }
    }
  });

  test("every served tool has a unique name, a title, a description an agent can act on, and described fields", () => {
    const names = TOOLS.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    for (const t of TOOLS) {
      expect(t.title.length).toBeGreaterThan(3);
      expect(t.description.length).toBeGreaterThan(60);
      for (const [field, f] of Object.entries(t.input.fields)) expect({ tool: t.name, field, ok: f.description.length > 10 }).toEqual({ tool: t.name, field, ok: true });
      for (const r of t.input.required ?? []) expect(Object.keys(t.input.fields)).toContain(r);
    }
  });
});
