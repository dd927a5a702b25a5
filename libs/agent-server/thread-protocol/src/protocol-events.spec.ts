import { matchesFilter } from './protocol-filter';
import { RunProtocolEvents } from './protocol-events';

const stored = (seq: number, event: string, data: unknown) => ({ seq, event, data: JSON.stringify(data) });
const shape = (events: { method: string; params: { namespace: string[]; data: unknown } }[]) => events.map((e) => [e.method, e.params.namespace, e.params.data]);

describe('RunProtocolEvents', () => {
  it('makes lifecycle, state, custom and subgraph events of a run, numbered in order, and its end', () => {
    const run = new RunProtocolEvents(2, 'agent');
    const events = [
      ...run.convert(stored(0, 'metadata', { run_id: 'r', attempt: 1 })),
      ...run.convert(stored(1, 'values', { n: 1 })),
      ...run.convert(stored(2, 'updates|child:abc', { inner: { n: 2 } })),
      ...run.convert(stored(3, 'updates|other:def', { inner: { n: 3 } })),
      ...run.convert(stored(4, 'updates', { child: { n: 2 } })),
      ...run.convert(stored(5, 'custom', { progress: 1 })),
      ...run.convert(stored(6, 'events', { ignored: true })),
      ...run.end({ status: 'success', output: '{"n":2}' }),
    ];
    expect(shape(events)).toEqual([
      ['lifecycle', [], { event: 'running', graph_name: 'agent' }],
      ['values', [], { n: 1 }],
      ['lifecycle', ['child:abc'], { event: 'started', graph_name: 'child' }],
      ['updates', ['child:abc'], { n: 2 }],
      ['lifecycle', ['other:def'], { event: 'started', graph_name: 'other' }],
      ['updates', ['other:def'], { n: 3 }],
      ['updates', [], { n: 2 }],
      ['lifecycle', ['child:abc'], { event: 'completed', graph_name: 'child' }],
      ['custom', [], { payload: { progress: 1 } }],
      ['lifecycle', ['other:def'], { event: 'completed', graph_name: 'other' }],
      ['lifecycle', [], { event: 'completed', graph_name: 'agent' }],
    ]);
    expect(events.filter((e) => e.method === 'updates').map((e) => e.params.node)).toEqual(['inner', 'inner', 'child']);
    const seqs = events.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(events.map((e) => e.event_id)).toEqual(seqs.map(String));
    // The same stored events make the same numbers on any replica.
    expect(new RunProtocolEvents(2).convert(stored(1, 'values', { n: 1 }))[0].seq).toBe(events[1].seq);
  });

  it('asks for input where the run stopped on an interrupt, and says how it ended', () => {
    const run = new RunProtocolEvents(0);
    const asked = [
      ...run.convert(stored(1, 'updates', { __interrupt__: [{ id: 'i1', value: { question: 'ok?' } }] })),
      ...run.convert(stored(2, 'values', { __interrupt__: [{ id: 'i1', value: { question: 'ok?' } }] })),
    ];
    expect(shape(asked)).toEqual([['input.requested', [], { interrupt_id: 'i1', payload: { question: 'ok?' } }]]);
    expect(shape(run.end({ status: 'success', output: null }))).toEqual([['lifecycle', [], { event: 'interrupted' }]]);
    const failed = new RunProtocolEvents(0).end({ status: 'error', output: JSON.stringify({ __error__: { error: 'TypeError', message: 'boom' } }) });
    expect(shape(failed)).toEqual([['lifecycle', [], { event: 'failed', error: 'boom' }]]);
    expect(shape(new RunProtocolEvents(0).end({ status: 'interrupted', output: null }))[0][2]).toEqual({ event: 'interrupted' });
    // A failure the run logged ends it at once: its subgraphs, then the run with the error; nothing after.
    const broken = new RunProtocolEvents(0, 'g');
    broken.convert(stored(0, 'updates|sub:1', { x: {} }));
    expect(shape(broken.convert(stored(1, 'error', { error: 'TypeError', message: 'the node broke' })))).toEqual([
      ['lifecycle', ['sub:1'], { event: 'failed', graph_name: 'sub' }],
      ['lifecycle', [], { event: 'failed', error: 'the node broke', graph_name: 'g' }],
    ]);
    expect(broken.end({ status: 'error', output: null })).toEqual([]);
  });

  it('filters by channel, named custom channel, namespace prefix and depth as the SDK narrows', () => {
    const run = new RunProtocolEvents(0);
    const converted = run.convert(stored(0, 'updates|agent:1|tools:2', { tool: {} }));
    expect(shape(converted).map(([method, namespace]) => [method, namespace])).toEqual([
      ['lifecycle', ['agent:1']],
      ['lifecycle', ['agent:1', 'tools:2']],
      ['updates', ['agent:1', 'tools:2']],
    ]);
    const [started, , updates] = converted;
    const [custom] = run.convert(stored(1, 'custom', { name: 'progress', payload: 1 }));
    expect(matchesFilter(updates, { channels: ['updates'] })).toBe(true);
    expect(matchesFilter(updates, { channels: ['values'] })).toBe(false);
    expect(matchesFilter(started, { channels: ['lifecycle'], namespaces: [['agent']], depth: 0 })).toBe(true);
    expect(matchesFilter(updates, { channels: ['updates'], namespaces: [['agent']], depth: 0 })).toBe(false);
    expect(matchesFilter(updates, { channels: ['updates'], namespaces: [['agent:1']], depth: 1 })).toBe(true);
    expect(matchesFilter(updates, { channels: ['updates'], namespaces: [['agent:9']] })).toBe(false);
    expect(matchesFilter(custom, { channels: ['custom'] })).toBe(true);
    expect(matchesFilter(custom, { channels: ['custom:progress'] })).toBe(true);
    expect(matchesFilter(custom, { channels: ['custom:other'] })).toBe(false);
  });
});

describe('messages and task namespaces', () => {
  it("puts a model's messages in its task's namespace, which ends after the task's result", () => {
    const run = new RunProtocolEvents(0, 'agent');
    const meta = { langgraph_node: 'respond', langgraph_checkpoint_ns: 'respond:t1' };
    const events = [
      ...run.convert(stored(0, 'messages', [{ type: 'ai', id: 'm', content: 'Hi', tool_call_chunks: [] }, meta])),
      ...run.convert(stored(1, 'updates', { respond: { messages: [] } })),
      ...run.convert(stored(2, 'tasks', { id: 't1', name: 'respond', error: null, interrupts: [], result: {} })),
      ...run.convert(stored(3, 'values', { messages: [] })),
    ];
    expect(events.map((e) => [e.method, e.params.namespace.join('|'), (e.params.data as Record<string, unknown>)['event'] ?? null])).toEqual([
      ['lifecycle', 'respond:t1', 'started'],
      ['messages', 'respond:t1', 'message-start'],
      ['messages', 'respond:t1', 'content-block-start'],
      ['messages', 'respond:t1', 'content-block-delta'],
      ['messages', 'respond:t1', 'content-block-finish'],
      ['messages', 'respond:t1', 'message-finish'],
      ['updates', '', null],
      ['tasks', '', null],
      ['lifecycle', 'respond:t1', 'completed'],
      ['values', '', null],
    ]);
    expect(events.filter((e) => e.method === 'messages').every((e) => e.params.node === undefined)).toBe(true);
  });
});

describe('protocol state', () => {
  it('carries messages with the protocol fields only, and leaves interrupts out', () => {
    const run = new RunProtocolEvents(0);
    const [values] = run.convert(
      stored(0, 'values', {
        messages: [
          { type: 'human', content: 'hi', id: 'h1', additional_kwargs: {}, response_metadata: {} },
          { type: 'ai', content: [{ type: 'text', text: 'yo' }], id: 'a1', tool_calls: [{ name: 'f', args: { q: 1 }, id: 'c1', type: 'tool_call' }], invalid_tool_calls: [], usage_metadata: {} },
          { type: 'tool', content: 'out', tool_call_id: 'c1', status: 'success', id: 't1' },
        ],
        count: 2,
      }),
    );
    expect(values.params.data).toEqual({
      messages: [
        { type: 'human', content: 'hi', id: 'h1' },
        { type: 'ai', content: [{ type: 'text', text: 'yo' }], id: 'a1', tool_calls: [{ id: 'c1', name: 'f', args: { q: 1 }, type: 'tool_call' }] },
        { type: 'tool', content: 'out', id: 't1', tool_call_id: 'c1', status: 'success' },
      ],
      count: 2,
    });
  });
});
