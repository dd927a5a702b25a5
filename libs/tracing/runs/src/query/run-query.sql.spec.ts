import { buildRunQuerySql } from './run-query.sql';

const TENANT = '11111111-1111-4111-8111-111111111111';

describe('buildRunQuerySql', () => {
  it('numbers filter parameters after the fixed ones and binds every value', () => {
    const { sql, params } = buildRunQuerySql(
      {
        tenantId: TENANT,
        sessionIds: ['33333333-3333-4333-8333-333333333333'],
        startUs: '1714564800000000',
        filter: 'eq(name, "x\'; DROP TABLE runs")',
        traceFilter: 'gt(latency, 5)',
        order: 'desc',
        limit: 10,
        after: { startTimeUs: '1714564800123456', id: '00000000-0000-4000-8000-000000000001' },
      },
      11,
    );
    expect(sql).not.toContain('DROP');
    expect(sql).toContain('r.tenant_id = $1::uuid AND r.has_create AND r.start_time IS NOT NULL');
    expect(sql).toContain('r.session_id = ANY($2::uuid[])');
    expect(sql).toContain('r.start_time >= $3::timestamptz');
    expect(sql).toContain('(r.name = $4::text)');
    expect(sql).toContain(
      'EXISTS (SELECT 1 FROM runs rt WHERE rt.tenant_id = r.tenant_id AND rt.id = r.trace_id AND rt.has_create AND (extract(epoch FROM (rt.end_time - rt.start_time)) > $5::numeric))',
    );
    expect(sql).toContain('(r.start_time, r.id) < ($6::timestamptz, $7::uuid)');
    expect(sql).toMatch(/ORDER BY r\.start_time DESC, r\.id DESC LIMIT \$8::int$/);
    expect(params).toEqual([
      TENANT,
      ['33333333-3333-4333-8333-333333333333'],
      '2024-05-01T12:00:00.000000Z',
      "x'; DROP TABLE runs",
      '5',
      '2024-05-01T12:00:00.123456Z',
      '00000000-0000-4000-8000-000000000001',
      '11',
    ]);
  });

  it('walks forward in ascending order', () => {
    const { sql } = buildRunQuerySql(
      { tenantId: TENANT, order: 'asc', limit: 5, after: { startTimeUs: '0', id: '00000000-0000-4000-8000-000000000001' } },
      6,
    );
    expect(sql).toContain('(r.start_time, r.id) > ($2::timestamptz, $3::uuid)');
    expect(sql).toContain('ORDER BY r.start_time ASC, r.id ASC');
  });
});
