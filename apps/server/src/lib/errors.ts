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
