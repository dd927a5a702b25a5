import { buildRunPageSql, RUN_PAGE_FILTER_FIRST_PARAM } from './run-page.sql';
import { selectedRunFields } from './run-stream-columns';

const base = {
  tenantId: '00000000-0000-4000-8000-000000000001',
  sessionId: '00000000-0000-4000-8000-000000000002',
  startUs: 1_714_521_600_000_000n,
  endUs: 1_714_608_000_000_000n,
  fields: selectedRunFields(['name']),
  limit: 500,
};

describe('buildRunPageSql', () => {
  it('binds the window as microsecond timestamps and selects only the asked columns', () => {
    const { sql, params } = buildRunPageSql(base);
    expect(params).toEqual([base.tenantId, base.sessionId, '2024-05-01T00:00:00.000000Z', '2024-05-02T00:00:00.000000Z', 500]);
    expect(sql).toContain('r.start_time >= $3::timestamptz AND r.start_time < $4::timestamptz');
    expect(sql).toMatch(/ORDER BY r\.start_time, r\.id LIMIT \$5$/);
    expect(sql).not.toContain('inputs');
    expect(sql).toContain('r.name AS name');
  });

  it('numbers filter values from $5, then the cursor, then the limit', () => {
    const filter = { sql: `r.run_type = $${RUN_PAGE_FILTER_FIRST_PARAM} AND r.name = $6`, params: ['llm', 'x'] };
    const after = { startTimeUs: 1_714_521_600_000_001n, id: '00000000-0000-4000-8000-000000000009' };
    const { sql, params } = buildRunPageSql({ ...base, filter, after });
    expect(params.slice(4)).toEqual(['llm', 'x', '2024-05-01T00:00:00.000001Z', after.id, 500]);
    expect(sql).toContain('AND (r.run_type = $5 AND r.name = $6) AND (r.start_time, r.id) > ($7::timestamptz, $8::uuid)');
    expect(sql).toMatch(/LIMIT \$9$/);
  });
});

describe('buildRunPageSql with a stored-byte budget', () => {
  it('binds the budget last and counts only the large columns the page selects', () => {
    const { sql, params } = buildRunPageSql({ ...base, fields: selectedRunFields(['name', 'outputs']), maxStoredBytes: 16_000_000 });
    expect(params.slice(4)).toEqual([500, 16_000_000]);
    expect(sql).toContain('LIMIT $5) r WHERE r.stored_through - r.stored_bytes < $6 ORDER BY r.start_time, r.id');
    expect(sql).toContain('coalesce(pg_column_size(r.outputs), 0) + 512 AS stored_bytes');
    expect(sql).not.toContain('pg_column_size(r.inputs)');
  });
});

describe('selectedRunFields', () => {
  it('always includes the cursor fields, in export column order, and everything when empty', () => {
    expect(selectedRunFields(['tags', 'name'])).toEqual(['id', 'name', 'start_time', 'tags']);
    expect(selectedRunFields([])).toHaveLength(29);
  });
});
