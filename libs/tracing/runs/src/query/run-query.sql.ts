import { microsToIso } from '@platform/contracts';
import { RUN_SELECT } from '../run-row';
import { compileRunQueryFilter, type RunQueryFilterName } from './run-query-filters';
import type { RunQuery } from './run-query.types';

// Collects WHERE conditions and their parameters; values only ever go into `params`.
class Conditions {
  readonly where: string[] = [];
  readonly params: unknown[] = [];

  param(value: unknown, cast: string): string {
    this.params.push(value);
    return `$${this.params.length}::${cast}`;
  }

  add(condition: string): void {
    this.where.push(condition);
  }

  constructor(private readonly feedbackModified?: RunQuery['feedbackModified']) {}

  filter(name: RunQueryFilterName, text: string | undefined, alias: string, wrap: (sql: string) => string = (sql) => sql): void {
    if (!text?.trim()) return;
    const compiled = compileRunQueryFilter(name, text, alias, this.params.length + 1, this.feedbackModified);
    this.params.push(...compiled.params);
    this.where.push(wrap(compiled.sql));
  }
}

/**
 * SQL for one page of `POST /runs/query` (and the v2 reads): the tenant's runs that have arrived (`has_create`) and have a start time
 * (the keyset), ordered by (start_time, id) in the query's direction and resumed strictly after its cursor.
 * `trace_filter` applies to the trace's root run (its id is the trace id); `tree_filter` to any run of the trace,
 * the run itself included.
 */
export function buildRunQuerySql(query: RunQuery, take: number | undefined, select = RUN_SELECT): { sql: string; params: unknown[] } {
  const c = new Conditions(query.feedbackModified);
  c.add(`r.tenant_id = ${c.param(query.tenantId, 'uuid')}`);
  c.add('r.has_create');
  c.add('r.start_time IS NOT NULL');
  if (query.sessionIds) c.add(`r.session_id = ANY(${c.param(query.sessionIds, 'uuid[]')})`);
  if (query.ids) c.add(`r.id = ANY(${c.param(query.ids, 'uuid[]')})`);
  if (query.traceId) c.add(`r.trace_id = ${c.param(query.traceId, 'uuid')}`);
  if (query.parentRunId) c.add(`r.parent_run_id = ${c.param(query.parentRunId, 'uuid')}`);
  if (query.referenceExampleIds) c.add(`r.reference_example_id = ANY(${c.param(query.referenceExampleIds, 'uuid[]')})`);
  if (query.runType) c.add(`r.run_type = ${c.param(query.runType, 'text')}`);
  if (query.isRoot !== undefined) c.add(`r.is_root = ${c.param(String(query.isRoot), 'boolean')}`);
  if (query.error !== undefined) c.add(query.error ? 'r.error IS NOT NULL' : 'r.error IS NULL');
  if (query.startUs) c.add(`r.start_time >= ${c.param(microsToIso(query.startUs), 'timestamptz')}`);
  if (query.endUs) c.add(`r.start_time ${query.endInclusive ? '<=' : '<'} ${c.param(microsToIso(query.endUs), 'timestamptz')}`);
  if (query.search) c.filter('filter', `search(${JSON.stringify(query.search)})`, 'r');
  c.filter('filter', query.filter, 'r', (sql) => `(${sql})`);
  c.filter('trace_filter', query.traceFilter, 'rt', (sql) =>
    `EXISTS (SELECT 1 FROM runs rt WHERE rt.tenant_id = r.tenant_id AND rt.id = r.trace_id AND rt.has_create AND (${sql}))`,
  );
  c.filter('tree_filter', query.treeFilter, 'rr', (sql) =>
    `EXISTS (SELECT 1 FROM runs rr WHERE rr.tenant_id = r.tenant_id AND rr.trace_id = r.trace_id AND rr.has_create AND (${sql}))`,
  );
  const desc = query.order === 'desc';
  if (query.after) {
    const start = c.param(microsToIso(query.after.startTimeUs), 'timestamptz');
    c.add(`(r.start_time, r.id) ${desc ? '<' : '>'} (${start}, ${c.param(query.after.id, 'uuid')})`);
  }
  const direction = desc ? 'DESC' : 'ASC';
  const limit = take === undefined ? '' : ` LIMIT ${c.param(String(take), 'int')}`;
  const sql = `SELECT ${select} FROM runs r WHERE ${c.where.join(' AND ')} ORDER BY r.start_time ${direction}, r.id ${direction}${limit}`;
  return { sql, params: c.params };
}
