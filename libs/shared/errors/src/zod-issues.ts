import type { ZodError } from 'zod';
import { ValidationError, type ValidationIssue } from './validation-error';

export type RequestPart = 'body' | 'query' | 'path' | 'header';

// zod issue codes → the pydantic error types FastAPI clients already know.
function pydanticType(issue: ZodError['issues'][number], missing: boolean): string {
  if (missing) return 'missing';
  switch (issue.code) {
    case 'invalid_type':
      return `${issue.expected === 'object' ? 'dict' : issue.expected}_type`;
    case 'invalid_value':
      return 'enum';
    case 'too_small':
      return issue.origin === 'string' ? 'string_too_short' : issue.origin === 'array' ? 'too_short' : 'greater_than_equal';
    case 'too_big':
      return issue.origin === 'string' ? 'string_too_long' : issue.origin === 'array' ? 'too_long' : 'less_than_equal';
    case 'invalid_format':
      return `${issue.format}_parsing`;
    default:
      return 'value_error';
  }
}

/** Turns a zod failure on one part of a request into the FastAPI-shaped `ValidationError`. */
export function validationErrorFromZod(error: ZodError, part: RequestPart, input?: unknown): ValidationError {
  const issues: ValidationIssue[] = error.issues.flatMap((issue) => {
    const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
    // A strict object's unknown fields: one issue each, at the field, as pydantic's `extra="forbid"` reports them.
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ loc: [part, ...path, key], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' }));
    }
    // zod reports an absent enum/literal field as invalid_value; pydantic calls any absent required field missing.
    const missing = (issue.code === 'invalid_type' || issue.code === 'invalid_value') && valueAt(input, path) === undefined;
    return {
      loc: [part, ...path],
      msg: missing ? 'Field required' : issue.message,
      type: pydanticType(issue, missing),
    };
  });
  return new ValidationError(issues);
}

function valueAt(input: unknown, path: (string | number)[]): unknown {
  let current: unknown = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}
