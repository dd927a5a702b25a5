import type { Thread } from '@platform/agent-server-data-access';
import { extractFields, parseExtractPath } from './thread-extract';
import { isThreadStateField, selectStateFields, selectThreadFields } from './thread-projection';
import { emptyThreadState } from './state-snapshot.mapper';

const thread: Thread = {
  thread_id: 't',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  state_updated_at: '2026-01-01T00:00:00.000Z',
  metadata: { user: 'u1' },
  status: 'idle',
  config: {},
  values: { messages: [{ type: 'human', content: 'a' }, { type: 'ai', content: 'b' }], step: 2 },
  interrupts: {},
};

describe('select and extract', () => {
  it('keeps only the selected state fields, values.<key> picking single keys', () => {
    const state = { ...emptyThreadState(), values: { messages: [1], other: 2 } };
    expect(selectStateFields(state, ['values.messages', 'next'])).toEqual({ values: { messages: [1] }, next: [] });
    expect(selectStateFields(state, ['values', 'values.messages'])).toEqual({ values: { messages: [1], other: 2 } });
    expect(selectStateFields(state, undefined)).toBe(state);
    expect(isThreadStateField('values.x')).toBe(true);
    expect(isThreadStateField('values.')).toBe(false);
    expect(isThreadStateField('nope')).toBe(false);
  });

  it('keeps only the selected thread fields', () => {
    expect(selectThreadFields(thread, ['thread_id', 'status'])).toEqual({ thread_id: 't', status: 'idle' });
    expect(selectThreadFields(thread, ['thread_id', 'context'])).toEqual({ thread_id: 't' });
  });

  it('extracts values by path, negative indexes counting from the end, null where nothing is', () => {
    const paths = {
      last: parseExtractPath('values.messages[-1].content'),
      first: parseExtractPath('values.messages[0]'),
      user: parseExtractPath('metadata.user'),
      missing: parseExtractPath('values.nope[3].x'),
    };
    expect(extractFields(thread, paths)).toEqual({ last: 'b', first: { type: 'human', content: 'a' }, user: 'u1', missing: null });
    for (const bad of ['', '.values', 'values..x', 'values[x]', 'values.', '[0]']) expect(() => parseExtractPath(bad)).toThrow(/Invalid extract path/);
  });
});
