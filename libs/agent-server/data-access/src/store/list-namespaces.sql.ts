import type { ListNamespacesOperation, MatchCondition } from '@langchain/langgraph-checkpoint';
import { InputError } from '@platform/errors';
import type { AccessFilter } from '../access-filter';
import type { Bind } from './store-filter.sql';
import { visibleNamespaceSql } from './store-access.sql';
import { descendantsPattern, joinNamespace } from './store-namespace';

const LABELS = `string_to_array(prefix, '.')`;

function matches(condition: MatchCondition, bind: Bind): string {
  const { path, matchType } = condition;
  if (path.length === 0) return 'TRUE';
  if (matchType === 'prefix' && !path.includes('*')) {
    const prefix = joinNamespace(path);
    return `(prefix = ${bind(prefix)} OR prefix LIKE ${bind(descendantsPattern(prefix))} ESCAPE '\\')`;
  }
  const parts = [`cardinality(${LABELS}) >= ${path.length}`];
  path.forEach((label, i) => {
    if (label === '*') return;
    const index = matchType === 'prefix' ? `${i + 1}` : `cardinality(${LABELS}) - ${path.length - i - 1}`;
    parts.push(`(${LABELS})[${index}] = ${bind(label)}`);
  });
  return `(${parts.join(' AND ')})`;
}

/**
 * The distinct namespaces of live items that meet every match condition ("*" matches any one label), cut to
 * `maxDepth` labels, sorted, one page, only those the caller's filter (`visible`) lets through. Returns the statement
 * and its parameters.
 */
export function listNamespacesSql(op: ListNamespacesOperation, notExpired: string, visible?: AccessFilter): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const bind: Bind = (value) => {
    params.push(value);
    return `$${params.length}`;
  };
  const where = [notExpired, ...(op.matchConditions ?? []).map((condition) => matches(condition, bind))];
  if (op.maxDepth !== undefined && (!Number.isInteger(op.maxDepth) || op.maxDepth < 1)) throw new InputError('max_depth must be a positive integer');
  const namespace = op.maxDepth === undefined ? LABELS : `(${LABELS})[1:${bind(op.maxDepth)}::int]`;
  const allowed = visibleNamespaceSql(visible, 'd.ns', bind);
  const sql =
    `SELECT to_jsonb(ns) AS namespace FROM (SELECT DISTINCT ${namespace} AS ns FROM store_items WHERE ${where.join(' AND ')}) d` +
    `${allowed ? ` WHERE ${allowed}` : ''} ORDER BY ns LIMIT ${bind(op.limit)}::int OFFSET ${bind(op.offset)}::int`;
  return { sql, params };
}
