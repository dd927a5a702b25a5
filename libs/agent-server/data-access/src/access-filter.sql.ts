import type { AccessFilter } from './access-filter';

/** Binds a value as the next parameter and returns its placeholder (`$n`). */
export type Bind = (value: unknown) => string;

/** A `Bind` appending to `params` (placeholders continue after what `params` already holds). */
export function binderOf(params: unknown[]): Bind {
  return (value) => {
    params.push(value);
    return `$${params.length}`;
  };
}

/**
 * The SQL condition for "the jsonb `document` passes the filter" (`matchesAccessFilter` in the database), or undefined
 * when there is nothing to check. Keys and values are bound, so the statement's text depends only on the filter's
 * shape (prepared statements stay few).
 */
export function accessFilterSql(filter: AccessFilter | undefined, document: string, bind: Bind): string | undefined {
  if (!filter || filter.length === 0) return undefined;
  const conditions = filter.map(({ key, op, value }) => {
    const field = `(${document} -> ${bind(key)}::text)`;
    const json = `${bind(JSON.stringify(value))}::jsonb`;
    return op === 'eq' ? `${field} = ${json}` : `(jsonb_typeof(${field}) = 'array' AND ${field} @> ${json})`;
  });
  // A missing field makes a comparison NULL: false here, so the condition can be negated or combined safely.
  return `COALESCE((${conditions.join(' AND ')}), false)`;
}
