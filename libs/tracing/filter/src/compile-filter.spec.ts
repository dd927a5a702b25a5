import { compileFilter, hasFeedbackCondition } from './compile-filter';
import { FilterSyntaxError } from './filter-syntax.error';
import { parseFilter } from './parse-filter';

describe('compileFilter: SQL shape', () => {
  it('binds every value as a cast $n parameter, numbered from firstParam, on the given alias', () => {
    const compiled = compileFilter('and(eq(run_type, "llm"), gt(start_time, "2024-05-01T00:00:00Z"), in(id, ["0190f1c2-8f0e-7b3a-9c1d-2e3f4a5b6c7d"]))', {
      alias: 'run',
      firstParam: 4,
    });
    expect(compiled).toEqual({
      sql: '(run.run_type = $4::text AND run.start_time > $5::timestamptz AND run.id = ANY($6::uuid[]))',
      params: ['llm', '2024-05-01T00:00:00Z', ['0190f1c2-8f0e-7b3a-9c1d-2e3f4a5b6c7d']],
    });
  });

  it('defaults to alias r and $1, and accepts a parsed filter', () => {
    expect(compileFilter(parseFilter('gt(total_tokens, 10)'))).toEqual({ sql: 'r.total_tokens > $1::numeric', params: ['10'] });
  });

  it('never puts a value in the SQL text', () => {
    const hostile = `x'; DROP TABLE runs; --`;
    const { sql, params } = compileFilter(
      `or(eq(name, "${hostile}"), like(error, "${hostile}"), has(tags, "${hostile}"), search("${hostile}"), eq(metadata_value, "${hostile}"), exists(metadata, "${hostile}"))`,
    );
    expect(sql).not.toContain('DROP');
    expect(params.filter((p) => typeof p === 'string' && p.includes('DROP TABLE'))).toHaveLength(6);
  });

  it('maps null comparisons and neq', () => {
    expect(compileFilter('eq(error, null)').sql).toBe('r.error IS NULL');
    expect(compileFilter('neq(error, null)').sql).toBe('r.error IS NOT NULL');
    expect(compileFilter('neq(name, "a")').sql).toBe('r.name IS DISTINCT FROM $1::text');
  });

  it('computes latency in seconds', () => {
    expect(compileFilter('gt(latency, "1.5m")')).toEqual({
      sql: 'extract(epoch FROM (r.end_time - r.start_time)) > $1::numeric',
      params: ['90'],
    });
  });

  it('puts paired metadata conditions in one EXISTS and lone ones in their own', () => {
    expect(compileFilter('and(eq(metadata_key, "a"), eq(metadata_value, "b"))').sql).toBe(
      "(EXISTS (SELECT 1 FROM jsonb_each_text(CASE WHEN jsonb_typeof(r.extra->'metadata') = 'object' THEN r.extra->'metadata' END) AS r_kv1(key, value) WHERE r_kv1.key = $1::text AND r_kv1.value = $2::text))",
    );
    expect(compileFilter('or(eq(metadata_key, "a"), eq(metadata_value, "b"))').sql.match(/EXISTS/g)).toHaveLength(2);
  });

  it('joins feedback on tenant and run', () => {
    expect(compileFilter('and(eq(feedback_key, "c"), gt(feedback_score, 0.5))', { alias: 'x' }).sql).toBe(
      '(EXISTS (SELECT 1 FROM feedback x_fb1 WHERE x_fb1.tenant_id = x.tenant_id AND x_fb1.run_id = x.id AND x_fb1.key = $1::text AND x_fb1.score > $2::float8))',
    );
  });

  it('limits feedback conditions to feedback modified in a window, when asked', () => {
    const compiled = compileFilter('eq(feedback_key, "c")', { feedbackModified: { from: '2024-05-01T00:00:00Z', to: '2024-05-02T00:00:00Z' } });
    expect(compiled).toEqual({
      sql: 'EXISTS (SELECT 1 FROM feedback r_fb1 WHERE r_fb1.tenant_id = r.tenant_id AND r_fb1.run_id = r.id AND r_fb1.key = $1::text AND r_fb1.updated_at >= $2::timestamptz AND r_fb1.updated_at < $3::timestamptz)',
      params: ['c', '2024-05-01T00:00:00Z', '2024-05-02T00:00:00Z'],
    });
    expect(compileFilter('gt(feedback_score, 0)', { feedbackModified: { to: '2024-05-02T00:00:00Z' } }).params).toEqual(['0', '2024-05-02T00:00:00Z']);
    // Other conditions are not affected.
    expect(compileFilter('eq(name, "a")', { feedbackModified: { from: '2024-05-01T00:00:00Z' } })).toEqual({ sql: 'r.name = $1::text', params: ['a'] });
  });

  it('tells whether a filter has a feedback condition', () => {
    expect(hasFeedbackCondition('and(eq(name, "a"), not(or(eq(run_type, "llm"), gt(feedback_score, 1))))')).toBe(true);
    expect(hasFeedbackCondition(parseFilter('eq(feedback_key, "c")'))).toBe(true);
    expect(hasFeedbackCondition('and(eq(metadata_key, "a"), search("x"))')).toBe(false);
    expect(() => hasFeedbackCondition('eq(name')).toThrow(FilterSyntaxError);
  });

  it('rejects a bad filter, alias or first parameter', () => {
    expect(() => compileFilter('eq(name')).toThrow(FilterSyntaxError);
    expect(() => compileFilter('eq(name, "a")', { alias: 'r; drop' })).toThrow('Invalid table alias');
    expect(() => compileFilter('eq(name, "a")', { firstParam: 0 })).toThrow('Invalid first parameter');
  });
});
