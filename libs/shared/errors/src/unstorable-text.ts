import type { RequestPart } from './zod-issues';
import type { ValidationIssue } from './validation-error';

// JSON (and so a client) can carry U+0000 and unpaired UTF-16 surrogates (`"\u0000"`, `"\ud800"`), but Postgres text
// and jsonb can hold neither: stored as they are, they fail the statement (a 500), and a driver may silently turn a
// lone surrogate into U+FFFD. Requests are checked for them before anything is stored or queried.
// eslint-disable-next-line no-control-regex -- U+0000 is what it looks for
const SUSPECT = /[\u0000\uD800-\uDFFF]/;
const UNPAIRED = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const EVERY_UNPAIRED = new RegExp(UNPAIRED.source, 'g');

/** Why Postgres cannot store this string, or undefined when it can. */
export function unstorableTextReason(text: string): string | undefined {
  if (!SUSPECT.test(text)) return undefined;
  if (text.includes('\u0000')) return 'String should not contain the null character (\\u0000)';
  if (UNPAIRED.test(text)) return 'String should not contain an unpaired surrogate (\\ud800-\\udfff)';
  return undefined;
}

/**
 * The string as Postgres can store it: U+0000 dropped, unpaired surrogates replaced by U+FFFD. For what a service
 * stores on its own account (traces, cached graph state), where refusing is not an option.
 */
export function storableText(text: string): string {
  return SUSPECT.test(text) ? text.replaceAll('\u0000', '').replace(EVERY_UNPAIRED, '\uFFFD') : text;
}

interface Visit {
  value: unknown;
  key: string | number | undefined;
  parent: Visit | undefined;
}

function locOf(visit: Visit): (string | number)[] {
  const loc: (string | number)[] = [];
  for (let v: Visit | undefined = visit; v?.key !== undefined; v = v.parent) loc.push(v.key);
  return loc.reverse();
}

const isPlainObject = (value: object) => {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/**
 * A FastAPI-shaped issue for each string in `value` (or object key, located as pydantic locates dict keys:
 * `[..., key, '[key]']`) that Postgres cannot store, at most `limit` of them. Walks plain objects and arrays
 * without recursion, so however deep a body is nested it cannot overflow the stack.
 */
export function unstorableTextIssues(value: unknown, part: RequestPart, limit = 20): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const report = (visit: Visit, msg: string, suffix: string[] = []) => {
    issues.push({ loc: [part, ...locOf(visit), ...suffix], msg, type: 'value_error' });
  };
  const stack: Visit[] = [{ value, key: undefined, parent: undefined }];
  while (stack.length > 0 && issues.length < limit) {
    const visit = stack.pop() as Visit;
    const keyReason = typeof visit.key === 'string' ? unstorableTextReason(visit.key) : undefined;
    if (keyReason) report(visit, keyReason, ['[key]']);
    const current = visit.value;
    if (typeof current === 'string') {
      const reason = unstorableTextReason(current);
      if (reason) report(visit, reason);
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], key: i, parent: visit });
    } else if (current !== null && typeof current === 'object' && isPlainObject(current)) {
      const keys = Object.keys(current);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        stack.push({ value: (current as Record<string, unknown>)[key], key, parent: visit });
      }
    }
  }
  return issues.slice(0, limit);
}
