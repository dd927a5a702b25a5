import { PREVIEW_CHARS, previewText, runV2Json, traceAggregatesJson } from './run-v2-json';

describe('previewText', () => {
  it('shows a string, the only string value of an object, or compact JSON, cut to the preview length', () => {
    expect(previewText('hello')).toBe('hello');
    expect(previewText({ input: 'What is 2 + 2?' })).toBe('What is 2 + 2?');
    expect(previewText({ a: 'x', b: 'y' })).toBe('{"a":"x","b":"y"}');
    expect(previewText({ n: 1 })).toBe('{"n":1}');
    expect(previewText(null)).toBeNull();
    const long = previewText('y'.repeat(PREVIEW_CHARS + 10)) as string;
    expect(long).toHaveLength(PREVIEW_CHARS);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('runV2Json', () => {
  const row = { id: 'r', start_time_us: '1', name: 'chat', run_type: 'llm', status: 'success', session_id: 's', serialized: { k: 1 }, total_tokens: '12' };

  it('shows the selected fields only, upper-cases enums, and leaves out what this service never holds', () => {
    expect(runV2Json(row, new Set())).toEqual({ id: 'r' });
    expect(runV2Json(row, new Set(['RUN_TYPE', 'STATUS', 'PROJECT_ID', 'MANIFEST', 'TOTAL_TOKENS', 'SHARE_URL', 'PRICE_MODEL_ID'] as const))).toEqual({
      id: 'r',
      run_type: 'LLM',
      status: 'SUCCESS',
      project_id: 's',
      manifest: { k: 1 },
      total_tokens: 12,
    });
  });

  it('routes aggregates to their own object, and leaves it out when none is selected', () => {
    const root = { ...row, trace_total_tokens: '40', trace_total_cost: 0.5, trace_first_token_time: null };
    expect(traceAggregatesJson(root, new Set(['TOTAL_TOKENS', 'TOTAL_COST', 'FIRST_TOKEN_TIME'] as const))).toEqual({ total_tokens: 40, total_cost: 0.5, first_token_time: null });
    expect(traceAggregatesJson(root, new Set(['NAME'] as const))).toBeUndefined();
  });
});
