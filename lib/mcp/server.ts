// `spex mcp`: the tools of ./tools over stdio with the official MCP SDK,
// which only this command loads (./sdk-load.ts), so no other command pays
// for it at startup.
import { shortId } from "../naming";
import { type ProjectStore, currentProject } from "../store";
import { VERSION } from "../version";
import { BoundedLines, oversizedAnswer } from "./bounded-input";
import { answerCall, errorAnswer } from "./call";
import { MAX_MCP_REQUEST_BYTES } from "./limits";
import { identifyCaller } from "./caller";
import { RESOURCES } from "./resources";
import { jsonSchemaOf } from "./schema";
import { loadMcpSdk } from "./sdk-load";
import type { ToolContext } from "./tool";
import { TOOLS, findTool } from "./tools";

export const SERVER_NAME = "spex";

function instructions(ctx: ToolContext | undefined): string {
  const who =
    ctx?.caller.kind === "session"
      ? `You are spex session ${ctx.caller.label} (${shortId(ctx.caller.id, 8)}); the session_done, session_park, session_ask, task_claim/finish/release, reserve and release tools act as you.`
      : "This server runs outside any spex session: the tools that act as the calling session (session_done/park/ask, task_claim/finish/release, reserve, release) are refused; the others work.";
  return [
    "spex runs this repository's coding-agent sessions side by side, each in its own git worktree, branch and tmux session.",
    who,
    "Take work from the shared list (task_list, task_claim, task_finish), reserve files before editing ones others may touch, message sessions with session_send, and park on session_wait rather than polling session_list.",
    "Every refusal carries a stable spex code in brackets and a hint saying what to do next.",
  ].join(" ");
}

/** Serve until the client closes stdin; calls still running (not waits) are let finish first. */
export async function serveMcp(io: { stdin?: NodeJS.ReadableStream; stdout?: NodeJS.WritableStream } = {}): Promise<void> {
  const { Server, StdioServerTransport, CallToolRequestSchema, ErrorCode, ListResourcesRequestSchema, ListToolsRequestSchema, McpError, ReadResourceRequestSchema } = await loadMcpSdk();
  let store: ProjectStore | undefined;
  let clientName = (): string => "an MCP client";
  const context = (): ToolContext => {
    // Resolved once it works (SPEX_PROJECT_ROOT from the pane, else the folder the server runs in).
    store ??= currentProject();
    return { store, caller: identifyCaller(store), client: clientName() };
  };
  let startup: ToolContext | undefined;
  try {
    startup = context();
  } catch {
    // Not in a repository: every call reports it (not_a_git_repo) instead of the server failing to start.
  }
  const server = new Server(
    { name: SERVER_NAME, title: "spex", version: VERSION },
    { capabilities: { tools: {}, resources: {} }, instructions: instructions(startup) },
  );
  clientName = () => server.getClientVersion()?.name || "an MCP client";

  const tools = TOOLS.map((t) => ({ name: t.name, title: t.title, description: t.description, inputSchema: jsonSchemaOf(t.input), annotations: { title: t.title, ...t.hints } }));
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));

  const running = new Set<Promise<unknown>>();
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const tool = findTool(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `no tool named ${JSON.stringify(request.params.name)}; tools/list names them all`);
    let ctx: ToolContext;
    try {
      ctx = context();
    } catch (e) {
      return errorAnswer(e);
    }
    const call = answerCall(tool, { ...ctx, signal: extra.signal }, request.params.arguments);
    // A wait holds nothing and may park for minutes: it does not keep a closing server alive.
    if (tool.name !== "session_wait") {
      running.add(call);
      void call.finally(() => running.delete(call));
    }
    return call;
  });

  server.setRequestHandler(ListResourcesRequestSchema, () => {
    let ctx: ToolContext | undefined;
    try {
      ctx = context();
    } catch {
      return { resources: [] };
    }
    return { resources: RESOURCES.filter((r) => r.available(ctx!)).map((r) => ({ uri: r.uri, name: r.name, title: r.title, description: r.description, mimeType: "application/json" })) };
  });
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const resource = RESOURCES.find((r) => r.uri === request.params.uri);
    const ctx = resource ? context() : undefined;
    if (!resource || !resource.available(ctx!)) throw new McpError(ErrorCode.InvalidParams, `no resource ${JSON.stringify(request.params.uri)} here; resources/list names them`);
    const value = await resource.read(ctx!);
    return { contents: [{ uri: resource.uri, mimeType: "application/json", text: JSON.stringify(value, null, 2) }] };
  });

  const stdin = (io.stdin ?? process.stdin) as NodeJS.ReadableStream;
  const stdout = (io.stdout ?? process.stdout) as NodeJS.WritableStream;
  const closed = new Promise<void>((resolve) => {
    stdin.once("end", resolve);
    stdin.once("close", resolve);
  });
  // Every message goes through the line bound first: an oversized one is answered here and never reaches the SDK.
  const bounded = new BoundedLines(MAX_MCP_REQUEST_BYTES, (line) => stdout.write(oversizedAnswer(line, MAX_MCP_REQUEST_BYTES)));
  stdin.pipe(bounded);
  await server.connect(new StdioServerTransport(bounded as never, stdout as never));
  await closed;
  await Promise.allSettled([...running]);
  await server.close();
}
