import { PlatformError } from './platform-errors';

/** One FastAPI `ValidationError` record: where (`loc`), what (`msg`) and its kind (`type`). */
export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

/** A request that failed validation. Rendered as FastAPI's `422 {"detail": [ValidationIssue, ...]}`. */
export class ValidationError extends PlatformError {
  readonly code = 'validation';
  constructor(readonly issues: ValidationIssue[]) {
    super(issues.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; ') || 'Validation failed');
  }

  /** One issue, e.g. `ValidationError.at(['body', 'name'], 'Field required', 'missing')`. */
  static at(loc: (string | number)[], msg: string, type = 'value_error'): ValidationError {
    return new ValidationError([{ loc, msg, type }]);
  }
}
