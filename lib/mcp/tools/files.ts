// Advisory file reservations (docs/coord.md): a lease says "this session is
// editing these paths"; an overlap is reported, never refused.
import { DEFAULT_LEASE_TTL_MS, listReservations, parseTtl, releaseReservations, reserve as reserveLeases } from "../../coord";
import { callerId, requireCaller } from "../caller";
import { MCP_LIMITS } from "../limits";
import { READ, type ToolDefinition, WRITE } from "../tool";

const PATTERNS = "Paths or globs relative to the repository root (a plain path covers everything under it; wildcards * ? [ {)";

export const reserve: ToolDefinition = {
  name: "reserve",
  title: "Reserve files",
  description:
    "Reserve paths or globs you are about to edit, so other sessions learn of it in time (as `spex reserve --json`). Exclusive unless `shared`; lapses on its own after `ttl` (default 30m, at most 4h); reserving a pattern again renews it. Another session's overlapping lease comes back in `conflicts` (the lease is granted all the same): talk to its holder before editing those files.",
  input: {
    fields: {
      patterns: { type: "array", description: PATTERNS, items: { maxLength: MCP_LIMITS.pattern }, minItems: 1, maxItems: MCP_LIMITS.patterns },
      shared: { type: "boolean", description: "Others may edit these paths too (default: exclusive)" },
      ttl: { type: "string", description: "How long it lasts: 45m, 2h, 1h30m, 90s (default 30m, at most 4h)", minLength: 1, maxLength: MCP_LIMITS.ttl },
      note: { type: "string", description: "What you are doing there, for the others", maxLength: MCP_LIMITS.leaseNote },
    },
    required: ["patterns"],
  },
  hints: { ...WRITE, idempotentHint: true },
  call(ctx, args) {
    const me = requireCaller("reserve", ctx.caller);
    const ttlMs = args.ttl === undefined ? DEFAULT_LEASE_TTL_MS : parseTtl(args.ttl);
    return reserveLeases(ctx.store, me, { patterns: args.patterns, mode: args.shared ? "shared" : "exclusive", ttlMs, note: args.note ?? "" });
  },
};

export const reservations: ToolDefinition = {
  name: "reservations",
  title: "List file reservations",
  description: "Every live file reservation of the project (as `spex reserve ls --json`): pattern, mode (exclusive or shared), holder, note, time left, and `mine` for yours. Check it before editing files another session may be changing.",
  input: { fields: {} },
  hints: READ,
  listKey: "reservations",
  call: (ctx) => listReservations(ctx.store, callerId(ctx.caller)),
};

export const release: ToolDefinition = {
  name: "release",
  title: "Release file reservations",
  description: "Drop your own file reservations: those on `patterns` (exactly as reserved), or all of yours when none are given. Other sessions' leases are never touched. (To give back a task, use task_release.)",
  input: { fields: { patterns: { type: "array", description: "Patterns exactly as you reserved them; default: all of yours", items: { maxLength: MCP_LIMITS.pattern }, minItems: 1, maxItems: MCP_LIMITS.patterns } } },
  hints: { ...WRITE, idempotentHint: true },
  async call(ctx, args) {
    return { released: await releaseReservations(ctx.store, requireCaller("release", ctx.caller), args.patterns) };
  },
};
