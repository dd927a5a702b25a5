import { NotAllowedError } from '@platform/errors';
import { matchesAccessFilter, type AccessFilter } from '../access-filter';
import { accessFilterSql, type Bind } from '../access-filter.sql';

// What the deployment's auth filters of a store item, as the reference builds it: its value with its namespace and
// key on top (so `{namespace: {$contains: user}}` checks the namespace).
const itemDocumentSql = (table: string) =>
  `(${table}.value || jsonb_build_object('namespace', to_jsonb(string_to_array(${table}.prefix, '.')), 'key', to_jsonb(${table}.key)))`;

/** The SQL condition for "the item row `table` passes the caller's filter"; `TRUE` without a filter. */
export const visibleItemSql = (visible: AccessFilter | undefined, table: string, bind: Bind): string =>
  accessFilterSql(visible, itemDocumentSql(table), bind) ?? 'TRUE';

/** The SQL condition for "the namespace (a `text[]` expression) passes the caller's filter", or undefined. */
export const visibleNamespaceSql = (visible: AccessFilter | undefined, namespace: string, bind: Bind): string | undefined =>
  accessFilterSql(visible, `jsonb_build_object('namespace', to_jsonb(${namespace}))`, bind);

/** A write must leave an item the caller may see: NotAllowedError (403) otherwise, as the reference refuses it. */
export function checkWritable(visible: AccessFilter | undefined, namespace: string[], key: string, value: Record<string, unknown> | null): void {
  if (!matchesAccessFilter({ ...value, namespace, key }, visible)) throw new NotAllowedError('Not authorized');
}
