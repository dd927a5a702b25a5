import { firstTokenMicros, usageFromRun, withRunCosts } from './token-usage';

const usage = (prompt: number, completion: number, total: number, cost: (number | null)[] = [null, null, null]) => ({
  promptTokens: prompt,
  completionTokens: completion,
  totalTokens: total,
  promptCost: cost[0],
  completionCost: cost[1],
  totalCost: cost[2],
});

describe('usageFromRun', () => {
  it('reads outputs.usage_metadata, with costs when given', () => {
    expect(usageFromRun({ usage_metadata: { input_tokens: 10, output_tokens: 5, total_tokens: 15 } }, undefined)).toEqual(usage(10, 5, 15));
    expect(usageFromRun({ usage_metadata: { input_tokens: 10, output_tokens: 5, input_cost: 0.1, output_cost: 0.2 } }, undefined)).toEqual(
      usage(10, 5, 15, [0.1, 0.2, expect.closeTo(0.3, 10)] as number[]),
    );
  });

  it('sums the usage of the messages of LangChain generations (serialized or plain)', () => {
    const serialized = { lc: 1, type: 'constructor', id: ['langchain_core', 'messages', 'AIMessage'], kwargs: { usage_metadata: { input_tokens: 3, output_tokens: 2, total_tokens: 5 } } };
    const plain = { usage_metadata: { input_tokens: 1, output_tokens: 1, total_tokens: 2 } };
    expect(usageFromRun({ generations: [[{ text: 'a', message: serialized }], [{ text: 'b', message: plain }]] }, undefined)).toEqual(usage(4, 3, 7));
  });

  it('reads llm_output.token_usage (OpenAI style)', () => {
    expect(usageFromRun({ llm_output: { token_usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 } } }, undefined)).toEqual(usage(7, 3, 10));
  });

  it('falls back to extra.metadata.usage_metadata, and finds nothing elsewhere', () => {
    expect(usageFromRun({ text: 'hi' }, { metadata: { usage_metadata: { input_tokens: 2, output_tokens: 2 } } })).toEqual(usage(2, 2, 4));
    expect(usageFromRun({ text: 'hi' }, { metadata: {} })).toBeUndefined();
    expect(usageFromRun(undefined, undefined)).toBeUndefined();
  });

  it('ignores counts that are not non-negative numbers', () => {
    expect(usageFromRun({ usage_metadata: { input_tokens: 'x', output_tokens: -3, total_tokens: null } }, undefined)).toEqual(usage(0, 0, 0));
  });
});

describe('withRunCosts', () => {
  it('replaces costs with those sent as run fields', () => {
    expect(withRunCosts(usage(1, 1, 2, [0.1, 0.1, 0.2]), { prompt: '0.5', completion: 0.25 })).toEqual(usage(1, 1, 2, [0.5, 0.25, 0.75]));
    expect(withRunCosts(usage(1, 1, 2), { total: 3 })).toEqual(usage(1, 1, 2, [null, null, 3]));
    expect(withRunCosts(usage(1, 1, 2, [0.1, 0.1, 0.2]), {})).toEqual(usage(1, 1, 2, [0.1, 0.1, 0.2]));
  });
});

describe('firstTokenMicros', () => {
  it('takes the earliest new_token event', () => {
    const events = [
      { name: 'start', time: '2024-05-01T12:00:00Z' },
      { name: 'new_token', time: '2024-05-01T12:00:02.000002Z' },
      { name: 'new_token', time: '2024-05-01T12:00:01.000001Z' },
    ];
    expect(firstTokenMicros(events)).toBe(Date.UTC(2024, 4, 1, 12, 0, 1) * 1000 + 1);
    expect(firstTokenMicros([{ name: 'start' }])).toBeUndefined();
    expect(firstTokenMicros('nope')).toBeUndefined();
  });
});
