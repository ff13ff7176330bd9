// One tools/call, without the SDK: check the arguments, run the tool, and
// shape the answer. A success carries the CLI's --json text; a refusal is a
// tool error (isError) carrying the CLI's error line and its JSON object, so
// the spex code reaches the model and any client that reads structured content.
import { describeError } from "../cli/output";
import { checkArguments } from "./schema";
import type { ToolContext, ToolDefinition } from "./tool";

export interface ToolAnswer {
  [key: string]: unknown;
  content: { type: "text"; text: string }[];
  structuredContent: Record<string, unknown>;
  isError?: boolean;
}

export function successAnswer(tool: ToolDefinition, value: unknown): ToolAnswer {
  const structured = Array.isArray(value) ? { [tool.listKey ?? "items"]: value } : (value as Record<string, unknown>);
  return { content: [{ type: "text", text: JSON.stringify(value, null, 2) }], structuredContent: structured };
}

export function errorAnswer(error: unknown): ToolAnswer {
  const { line, json } = describeError(error);
  // The line first (what happened, what to do, [code]), then the JSON object for a model that parses.
  return { content: [{ type: "text", text: `${line}\n${JSON.stringify(json)}` }], structuredContent: json, isError: true };
}

export async function answerCall(tool: ToolDefinition, ctx: ToolContext, args: unknown): Promise<ToolAnswer> {
  try {
    const checked = checkArguments(tool.name, tool.input, args);
    return successAnswer(tool, await tool.call(ctx, checked));
  } catch (e) {
    return errorAnswer(e);
  }
}
