import { InputError } from '@platform/errors';

/** The comparison operators a search filter may use on a top-level field of the item's value. */
export const FILTER_OPERATORS = ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin'] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

const isOperator = (key: string): key is FilterOperator => (FILTER_OPERATORS as readonly string[]).includes(key);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Binds values as it goes: `bind(v)` pushes `v` and returns its `$n`. */
export type Bind = (value: unknown) => string;

// Ordering compares like with like (jsonb orders numbers numerically, strings by collation); other types never match.
const ordered = (field: string, sign: string, p: string) => `(jsonb_typeof(${field}) = jsonb_typeof(${p}::jsonb) AND ${field} ${sign} ${p}::jsonb)`;

function condition(field: string, op: FilterOperator, operand: unknown, bind: Bind): string {
  const json = () => bind(JSON.stringify(operand));
  switch (op) {
    case '$eq':
      return `${field} = ${json()}::jsonb`;
    case '$ne':
      // A missing field is "not equal", as in LangGraph's in-memory store.
      return `${field} IS DISTINCT FROM ${json()}::jsonb`;
    case '$gt':
      return ordered(field, '>', json());
    case '$gte':
      return ordered(field, '>=', json());
    case '$lt':
      return ordered(field, '<', json());
    case '$lte':
      return ordered(field, '<=', json());
    case '$in':
    case '$nin': {
      const member = `EXISTS (SELECT 1 FROM jsonb_array_elements(${json()}::jsonb) AS e(element) WHERE e.element = ${field})`;
      return op === '$in' ? member : `NOT ${member}`;
    }
  }
}

/** What is wrong with a filter, per field: an unknown operator, operators mixed with fields, `$in` without an array. */
export function filterIssues(filter: Record<string, unknown> | undefined): { field: string; message: string }[] {
  const issues: { field: string; message: string }[] = [];
  for (const [field, expected] of Object.entries(filter ?? {})) {
    const keys = isPlainObject(expected) ? Object.keys(expected) : [];
    const dollar = keys.filter((k) => k.startsWith('$'));
    if (dollar.length === 0) continue;
    if (dollar.length !== keys.length) issues.push({ field, message: 'A filter may not mix operators ($...) and fields' });
    for (const op of dollar) {
      if (!isOperator(op)) issues.push({ field, message: `Unsupported filter operator ${op} (use ${FILTER_OPERATORS.join(' ')})` });
      else if ((op === '$in' || op === '$nin') && !Array.isArray((expected as Record<string, unknown>)[op])) issues.push({ field, message: `${op} takes an array` });
    }
  }
  return issues;
}

/**
 * SQL conditions on `value` for a store search filter: `{field: v}` is JSON equality on a top-level field (objects
 * and arrays compare deeply); `{field: {$op: v, ...}}` applies each operator (`$eq $ne $gt $gte $lt $lte $in $nin`).
 * A filter with `filterIssues` is an InputError.
 */
export function filterConditions(filter: Record<string, unknown> | undefined, bind: Bind, column = 'store_items.value'): string[] {
  const [issue] = filterIssues(filter);
  if (issue) throw new InputError(`Filter on '${issue.field}': ${issue.message}`);
  const conditions: string[] = [];
  for (const [key, expected] of Object.entries(filter ?? {})) {
    const field = `${column} -> ${bind(key)}`;
    const operators = isPlainObject(expected) ? Object.keys(expected) : [];
    if (operators.length === 0 || !operators[0]!.startsWith('$')) {
      conditions.push(`${field} = ${bind(JSON.stringify(expected))}::jsonb`);
      continue;
    }
    for (const op of operators as FilterOperator[]) conditions.push(condition(field, op, (expected as Record<string, unknown>)[op], bind));
  }
  return conditions;
}
