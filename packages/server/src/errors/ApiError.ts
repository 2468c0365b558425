import { ERRORS, type ErrorName, type FieldErrorTree } from '@guildhall/protocol';

export interface ApiErrorOptions {
  /** Per-field failures, nested as the request body is. */
  errors?: FieldErrorTree;
  /** Extra top-level body fields some errors carry (retry_after on 110000, for one). */
  extra?: Record<string, unknown>;
  cause?: unknown;
}

/**
 * The one error type a route or service throws. Its code, status and message always come from the
 * catalogue in `@guildhall/protocol`, so no handler picks a status of its own.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly errorName: ErrorName;
  readonly code: number;
  readonly status: number;
  readonly errors: FieldErrorTree | undefined;
  readonly extra: Record<string, unknown> | undefined;

  constructor(errorName: ErrorName, options: ApiErrorOptions = {}) {
    const definition = ERRORS[errorName];
    super(definition.message, { cause: options.cause });
    this.errorName = errorName;
    this.code = definition.code;
    this.status = definition.status;
    this.errors = options.errors;
    this.extra = options.extra;
  }
}

/** A 50035 failure naming one field, for rules a schema cannot express. */
export function invalidField(path: (string | number)[], code: string, message: string): ApiError {
  let tree: FieldErrorTree = { _errors: [{ code, message }] };
  for (const key of [...path].reverse()) tree = { [String(key)]: tree };
  return new ApiError('INVALID_FORM_BODY', { errors: tree });
}
