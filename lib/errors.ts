// The project's error type: a stable code for scripts, a message that says what
// happened, and a hint that says what to do next (DESIGN.md §4).
export class SpexError extends Error {
  readonly code: string;
  readonly hint: string;
  readonly details: Record<string, unknown>;
  /** 1 for refusals and failures, 2 for usage errors. */
  readonly exitCode: number;
  /** HTTP status a backend route answers with. */
  readonly httpStatus: number;

  constructor(
    code: string,
    message: string,
    opts: { hint?: string; details?: Record<string, unknown>; exitCode?: number; httpStatus?: number } = {},
  ) {
    super(message);
    this.name = "SpexError";
    this.code = code;
    this.hint = opts.hint ?? "";
    this.details = opts.details ?? {};
    this.exitCode = opts.exitCode ?? 1;
    // A usage error is the caller's request being wrong, over HTTP as on the command line.
    this.httpStatus = opts.httpStatus ?? (this.exitCode === 2 ? 400 : 409);
  }

  toJSON(): { error: Record<string, unknown> } {
    return { error: { code: this.code, message: this.message, hint: this.hint, ...this.details } };
  }
}

export function isSpexError(e: unknown): e is SpexError {
  return e instanceof SpexError;
}

export function errnoCode(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException | undefined)?.code;
}
