import { ERRORS, type ErrorCode } from '@platform/domain';

/** A failure with a registered code: the HTTP status and message come from the domain's registry. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly errors?: Record<string, string>,
  ) {
    super(message ?? ERRORS[code].message);
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
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, constraint: name } = e as { code?: unknown; constraint?: unknown };
    if (code === '23505') return !constraint || name === undefined || name === constraint;
  }
  return false;
}
