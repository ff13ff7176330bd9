// The sessions live/bulk contract (seeds/000) as typanion validators: every
// required field with its name, type and enum, typed as its consumers type it
// (unknown folders and lines are null; the guard limits a consumer compares
// against are numbers). Additive fields are allowed (the contract says so);
// the additive fields spex promises are checked too. test/support/
// sessions-contract.ts holds the same fields as TypeScript interfaces.
import * as t from "typanion";

const additive = { extra: t.isDict(t.isUnknown()) };
const isStatus = t.isEnum(["active", "idle", "needs_attention", "dead"] as const);

export const isLiveRow = t.isObject(
  {
    target: t.isString(),
    session: t.isString(),
    windowIndex: t.isString(),
    paneIndex: t.isString(),
    paneId: t.isString(),
    command: t.isString(),
    cwd: t.isNullable(t.isString()),
    projectPath: t.isNullable(t.isString()),
    projectSlug: t.cascade(t.isString(), [t.matchesRegExp(/^[\p{L}\p{N}]+(-[\p{L}\p{N}]+)*$/u)]),
    machine: t.isString(),
    title: t.isString(),
    status: isStatus,
    statusReason: t.isString(),
    paneDead: t.isBoolean(),
    paneActive: t.isBoolean(),
    lastVisibleLine: t.isNullable(t.isString()),
    isOpenSession: t.isBoolean(),
  },
  additive,
);

/** The additive fields spex adds to every live row. */
export const isSpexLiveRowExtras = t.isPartial({
  socket: t.isString(),
  sessionId: t.isNullable(t.isString()),
  harness: t.isNullable(t.isString()),
  statusRule: t.isString(),
});

export const isBulkEntry = t.isObject(
  {
    target: t.isString(),
    machine: t.isString(),
    projectSlug: t.isString(),
    projectPath: t.isNullable(t.isString()),
    isOpenSession: t.isBoolean(),
    status: isStatus,
    action: t.isEnum(["status", "capture", "doctor", "ensure", "start", "stop", "restart"] as const),
    decision: t.isEnum(["planned", "queued", "skipped", "refused"] as const),
    reason: t.isString(),
    scheduledDelayMs: t.isNumber(),
    queue: t.isEnum(["none", "local"] as const),
    argv: t.isNullable(t.isArray(t.isString())),
    commandPreview: t.isNullable(t.isString()),
    lastVisibleLine: t.isNullable(t.isString()),
  },
  additive,
);

export const isBulkEnvelope = t.isObject(
  {
    schemaVersion: t.isLiteral("sessions.bulk.v1"),
    observedAt: t.cascade(t.isString(), [t.matchesRegExp(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/)]),
    action: t.isEnum(["status", "capture", "doctor", "ensure", "start", "stop", "restart"] as const),
    dryRun: t.isBoolean(),
    yes: t.isBoolean(),
    queue: t.isBoolean(),
    executionEnabled: t.isBoolean(),
    concurrency: t.isNumber(),
    jitterMs: t.isNumber(),
    filters: t.isObject(
      {
        openOnly: t.isBoolean(),
        statuses: t.isNullable(t.isArray(isStatus)),
        project: t.isNullable(t.isString()),
        machine: t.isNullable(t.isString()),
      },
      additive,
    ),
    guard: t.isObject(
      {
        ok: t.isBoolean(),
        reasons: t.isArray(t.isString()),
        hints: t.isObject(
          {
            captureScope: t.isLiteral("prefiltered"),
            activeAgentCount: t.isNumber(),
            selectedCount: t.isNumber(),
            selectedMachineCount: t.isNumber(),
            selectedMachines: t.isArray(t.isString()),
            load1: t.isNumber(),
            cpuCount: t.isNumber(),
            loadPerCore: t.isNumber(),
            maxActiveAgents: t.isNumber(),
            maxLoad1: t.isNullable(t.isNumber()),
            maxLoadPerCore: t.isNumber(),
          },
          additive,
        ),
      },
      additive,
    ),
    summary: t.isObject(
      {
        totalPanes: t.isNumber(),
        selected: t.isNumber(),
        planned: t.isNumber(),
        queued: t.isNumber(),
        skipped: t.isNumber(),
        refused: t.isNumber(),
      },
      additive,
    ),
    entries: t.isArray(isBulkEntry),
  },
  additive,
);

/** Validation errors of a value against a validator ([] when it conforms). */
export function contractErrors(validator: t.StrictValidator<unknown, unknown>, value: unknown): string[] {
  const errors: string[] = [];
  return validator(value, { errors }) ? [] : errors;
}
