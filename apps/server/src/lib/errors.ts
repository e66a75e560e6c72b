import { ERRORS, type ErrorCode } from '@platform/domain';

/**
 * A failure with a registered code: the HTTP status and message come from the domain's registry. A `cause` (what
 * a storage or provider said) is logged by the error handler and never sent to the client.
 */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly errors?: Record<string, string>,
    options?: { cause?: unknown },
  ) {
    super(message ?? ERRORS[code].message, options);
    this.status = ERRORS[code].status;
  }
}

/** A 400 with one field message, for rules the schema cannot express (uniqueness checks aside). */
export function fieldError(field: string, message: string): AppError {
  return new AppError('VALIDATION', message, { [field]: message });
}

/**
 * True for a PostgreSQL unique violation (23505), optionally on one named constraint. Drizzle wraps driver
 * errors in DrizzleQueryError, so the driver's error (with `code` and `constraint`) may sit in `cause`.
 */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  for (
    let e: unknown = err, depth = 0;
    e && typeof e === 'object' && depth < 4;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const { code, constraint: name } = e as { code?: unknown; constraint?: unknown };
    if (code === '23505') return !constraint || name === undefined || name === constraint;
  }
  return false;
}

/**
 * PostgreSQL's "data exception" codes a value from outside can cause: characters it cannot store (22021, 22P05), text
 * too long (22001), a number out of range (22003), a malformed number or date (22P02, 22007, 22008). The shared
 * schemas refuse such input first; this is the backstop for a bound one of them misses, answered as bad input.
 */
const BAD_DATA_CODES = new Set(['22021', '22P05', '22001', '22003', '22P02', '22007', '22008']);

export function isBadDataError(err: unknown): boolean {
  for (
    let e: unknown = err, depth = 0;
    e && typeof e === 'object' && depth < 4;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const { code } = e as { code?: unknown };
    if (typeof code === 'string' && BAD_DATA_CODES.has(code)) return true;
  }
  return false;
}
