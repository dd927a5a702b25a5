import { InternalError } from '@platform/errors';

/** `eq`: the field equals the value (JSON equality); `contains`: the field is an array holding every value given. */
export type AccessOperator = 'eq' | 'contains';

export interface AccessCondition {
  readonly key: string;
  readonly op: AccessOperator;
  /** A JSON value; for `contains`, the list of values the field must hold. */
  readonly value: unknown;
}

/**
 * What an auth handler's filter (`{owner: "alice"}`, `{owner: {$eq: "alice"}}`, `{tags: {$contains: "x"}}`) asks of a
 * resource's metadata: every condition holds. Empty: everything passes.
 */
export type AccessFilter = readonly AccessCondition[];

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const invalid = (key: string, why: string) => new InternalError(`Auth handler returned an invalid filter for '${key}': ${why}`);

function conditionsOf(key: string, expected: unknown): AccessCondition[] {
  if (!isPlainObject(expected)) return [{ key, op: 'eq', value: expected ?? null }];
  const operators = Object.keys(expected);
  // A filter the server cannot apply must not let everything through: it is the handler's mistake (500).
  if (operators.length === 0) throw invalid(key, 'an object needs $eq or $contains');
  return operators.map((operator) => {
    const operand = expected[operator];
    if (operator === '$eq') return { key, op: 'eq', value: operand ?? null };
    if (operator === '$contains') return { key, op: 'contains', value: Array.isArray(operand) ? operand : [operand] };
    throw invalid(key, `unsupported operator ${operator} (use $eq or $contains)`);
  });
}

/** The conditions of a handler's filter; an unsupported shape is an InternalError naming the key. */
export function parseAccessFilter(filter: Record<string, unknown>): AccessFilter {
  return Object.entries(filter).flatMap(([key, expected]) => conditionsOf(key, expected));
}

/** Both filters at once (a resource reached through two events, e.g. a thread's runs: read and search). */
export function bothFilters(a: AccessFilter | undefined, b: AccessFilter | undefined): AccessFilter | undefined {
  if (!a) return b;
  if (!b) return a;
  return [...a, ...b];
}

const sameJson = (a: unknown, b: unknown): boolean => {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && sameJson(a[k], b[k]));
  }
  return false;
};

/**
 * Whether a document (a resource's metadata, a store item as `{...value, namespace, key}`) passes the filter, with the
 * same meaning as `accessFilterSql` gives it in the database.
 */
export function matchesAccessFilter(document: Record<string, unknown> | null | undefined, filter: AccessFilter | undefined): boolean {
  if (!filter) return true;
  return filter.every(({ key, op, value }) => {
    const actual = document && Object.hasOwn(document, key) ? document[key] : undefined;
    if (op === 'eq') return actual !== undefined && sameJson(actual, value);
    return Array.isArray(actual) && (value as unknown[]).every((wanted) => actual.some((item) => sameJson(item, wanted)));
  });
}
