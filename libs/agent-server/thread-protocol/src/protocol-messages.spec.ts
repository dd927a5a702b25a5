import { ProtocolMessages } from './protocol-messages';

// Messages as the run event log stores them (LangChain's JSON of a chunk: `tool_call_chunks` marks a chunk).
const chunk = (id: string, content: string, extra: Record<string, unknown> = {}) => ({ type: 'ai', id, content, tool_call_chunks: [], ...extra });
const meta = { langgraph_node: 'agent', ls_provider: 'fake', ls_model_name: 'list' };

describe('ProtocolMessages', () => {
  it('turns streamed chunks of one message into start, deltas and a finish', () => {
    const messages = new ProtocolMessages();
    const parts = [
      ...messages.add([], [chunk('m1', 'Hel'), meta]),
      ...messages.add([], [chunk('m1', 'lo'), meta]),
      ...messages.add([], [chunk('m1', '', { tool_call_chunks: [{ index: 0, id: 'c1', name: 'search', args: '{"q":' }] }), meta]),
      ...messages.add([], [chunk('m1', '', { tool_call_chunks: [{ index: 0, args: '"x"}' }], usage_metadata: { input_tokens: 1, output_tokens: 2, total_tokens: 3 } }), meta]),
      ...messages.settleWithin([]),
    ];
    expect(parts.map((p) => p.data)).toEqual([
      { event: 'message-start', id: 'm1' },
      { event: 'content-block-start', index: 0, content: { type: 'text', text: '' } },
      { event: 'content-block-delta', index: 0, delta: { type: 'text-delta', text: 'Hel' } },
      { event: 'content-block-delta', index: 0, delta: { type: 'text-delta', text: 'lo' } },
      { event: 'content-block-finish', index: 0, content: { type: 'text', text: 'Hello' } },
      { event: 'content-block-start', index: 1, content: { type: 'tool_call_chunk', id: 'c1', name: 'search', args: '' } },
      { event: 'content-block-delta', index: 1, delta: { type: 'tool-call-delta', args: '{"q":' } },
      { event: 'content-block-delta', index: 1, delta: { type: 'tool-call-delta', args: '"x"}' } },
      { event: 'content-block-finish', index: 1, content: { type: 'tool_call', id: 'c1', name: 'search', args: { q: 'x' } } },
      { event: 'message-finish', usage: { input_tokens: 1, output_tokens: 2, total_tokens: 3 } },
    ]);
    expect(parts.every((p) => p.node === 'agent')).toBe(true);
    expect(messages.settleAll()).toEqual([]);
  });

  it('ends a message when the next starts, and replays a whole message block by block', () => {
    const messages = new ProtocolMessages();
    messages.add(['child:1'], [chunk('a', 'one'), meta]);
    const next = messages.add(['child:1'], [{ type: 'tool', id: 't1', tool_call_id: 'c1', content: 'result' }, meta]);
    expect(next.map((p) => p.data['event'])).toEqual(['content-block-finish', 'message-finish', 'message-start', 'content-block-start', 'content-block-delta', 'content-block-finish', 'message-finish']);
    expect(next[2].data).toEqual({ event: 'message-start', id: 't1', role: 'tool', tool_call_id: 'c1' });
    expect(next.every((p) => p.namespace[0] === 'child:1')).toBe(true);
  });

  it('skips the complete form of the message it streamed, and keeps namespaces apart', () => {
    const messages = new ProtocolMessages();
    messages.add([], [chunk('a', 'x'), meta]);
    messages.add(['sub:1'], [chunk('b', 'y'), meta]);
    const complete = messages.add([], [{ type: 'ai', id: 'a', content: 'x', tool_calls: [] }, meta]);
    expect(complete.map((p) => p.data['event'])).toEqual(['content-block-finish', 'message-finish']);
    expect(messages.settleAll().map((p) => [p.namespace, p.data['event']])).toEqual([
      [['sub:1'], 'content-block-finish'],
      [['sub:1'], 'message-finish'],
    ]);
  });

  it('marks tool-call arguments that are not a JSON object as an invalid tool call', () => {
    const messages = new ProtocolMessages();
    messages.add([], [chunk('a', '', { tool_call_chunks: [{ index: 0, id: 'c', name: 'f', args: '{"broken' }] }), meta]);
    expect(messages.settleAll()[0].data).toMatchObject({ event: 'content-block-finish', content: { type: 'invalid_tool_call', id: 'c', name: 'f', args: '{"broken' } });
  });
});
