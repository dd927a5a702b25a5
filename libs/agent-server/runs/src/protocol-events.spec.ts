import { matchesFilter } from './protocol-filter';
import { RunProtocolEvents } from './protocol-events';

const stored = (seq: number, event: string, data: unknown) => ({ seq, event, data: JSON.stringify(data) });
const shape = (events: { method: string; params: { namespace: string[]; data: unknown } }[]) => events.map((e) => [e.method, e.params.namespace, e.params.data]);

describe('RunProtocolEvents', () => {
  it('makes lifecycle, passthrough and subgraph events of a run, numbered in order, and its end', () => {
    const run = new RunProtocolEvents(2);
    const events = [
      ...run.convert(stored(0, 'metadata', { run_id: 'r', attempt: 1 })),
      ...run.convert(stored(1, 'values', { n: 1 })),
      ...run.convert(stored(2, 'updates|child:abc', { inner: { n: 2 } })),
      ...run.convert(stored(3, 'custom', { progress: 1 })),
      ...run.convert(stored(4, 'events', { ignored: true })),
      ...run.end({ status: 'success', output: '{"n":2}' }),
    ];
    expect(shape(events)).toEqual([
      ['lifecycle', [], { event: 'started' }],
      ['values', [], { n: 1 }],
      ['lifecycle', ['child:abc'], { event: 'started', graph_name: 'child' }],
      ['updates', ['child:abc'], { node: 'inner', values: { n: 2 } }],
      ['custom', [], { payload: { progress: 1 } }],
      ['lifecycle', ['child:abc'], { event: 'completed' }],
      ['lifecycle', [], { event: 'completed' }],
    ]);
    const seqs = events.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(events.map((e) => e.event_id)).toEqual(seqs.map(String));
    // The same stored events make the same numbers on any replica.
    expect(new RunProtocolEvents(2).convert(stored(1, 'values', { n: 1 }))[0].seq).toBe(events[1].seq);
  });

  it('asks for input where the run stopped on an interrupt, and says how it ended', () => {
    const run = new RunProtocolEvents(0);
    const asked = run.convert(stored(1, 'values', { __interrupt__: [{ id: 'i1', value: { question: 'ok?' } }] }));
    expect(shape(asked)).toEqual([['input.requested', [], { interrupt_id: 'i1', payload: { question: 'ok?' } }]]);
    expect(shape(run.end({ status: 'success', output: null }))).toEqual([['lifecycle', [], { event: 'interrupted' }]]);
    const failed = new RunProtocolEvents(0).end({ status: 'error', output: JSON.stringify({ __error__: { error: 'TypeError', message: 'boom' } }) });
    expect(shape(failed)).toEqual([['lifecycle', [], { event: 'failed', error: 'boom' }]]);
    expect(shape(new RunProtocolEvents(0).end({ status: 'interrupted', output: null }))[0][2]).toEqual({ event: 'failed', error: 'The run was cancelled' });
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
