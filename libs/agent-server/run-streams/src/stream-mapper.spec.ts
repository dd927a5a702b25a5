import { AIMessage, AIMessageChunk, HumanMessage } from '@langchain/core/messages';
import { interrupt, MemorySaver, MessagesAnnotation, StateGraph } from '@langchain/langgraph';
import { StreamMapper, type MappedEvent } from './stream-mapper';

const child = new StateGraph(MessagesAnnotation)
  .addNode('inner', () => ({ messages: [new AIMessage({ content: 'inner', id: 'm-inner' })] }))
  .addEdge('__start__', 'inner')
  .compile();

const parent = new StateGraph(MessagesAnnotation)
  .addNode('child', child)
  .addNode('outer', () => ({ messages: [new AIMessage({ content: 'outer', id: 'm-outer' })] }))
  .addEdge('__start__', 'child')
  .addEdge('child', 'outer')
  .compile();

/** Streams a graph the way the executor does and maps every chunk. */
async function mapped(mapper: StreamMapper, graph: typeof parent, input: unknown, subgraphs = false, config = {}): Promise<MappedEvent[]> {
  const out: MappedEvent[] = [];
  const stream = await graph.stream(input as never, { ...config, streamMode: mapper.graphModes(), subgraphs });
  for await (const chunk of stream as AsyncIterable<unknown[]>) {
    const [ns, mode, payload] = subgraphs ? (chunk as [string[], string, unknown]) : [[], ...(chunk as [string, unknown])];
    out.push(...mapper.map(ns as string[], mode as string, payload));
  }
  return out;
}

describe('StreamMapper', () => {
  it('asks the graph for values always, and for messages when either message mode is wanted', () => {
    expect(new StreamMapper(['updates']).graphModes().sort()).toEqual(['updates', 'values']);
    expect(new StreamMapper(['messages-tuple', 'events']).graphModes().sort()).toEqual(['messages', 'values']);
    expect(new StreamMapper(['messages']).graphModes().sort()).toEqual(['messages', 'values']);
  });

  it('emits only the modes asked for, names subgraph events <mode>|<namespace>, and keeps the last root values', async () => {
    const mapper = new StreamMapper(['updates']);
    const events = await mapped(mapper, parent, { messages: [new HumanMessage({ content: 'hi', id: 'm-in' })] }, true);
    const names = events.map((e) => e.event);
    expect(names.filter((n) => !n.includes('|'))).toEqual(['updates', 'updates']);
    expect(names.filter((n) => n.includes('|'))).toEqual([expect.stringMatching(/^updates\|child:[0-9a-f-]+$/)]);
    expect((mapper.lastValues as { messages: { content: string }[] }).messages.map((m) => m.content)).toEqual(['hi', 'inner', 'outer']);
    expect(mapper.interrupted).toBe(false);
  });

  it('streams messages-tuple as `messages` and the legacy mode as metadata, partial and complete', () => {
    const tuple = new StreamMapper(['messages-tuple']);
    const chunk = new AIMessageChunk({ content: 'He', id: 'ai-1' });
    expect(tuple.map([], 'messages', [chunk, { langgraph_node: 'agent' }])).toEqual([{ event: 'messages', data: [chunk, { langgraph_node: 'agent' }] }]);
    expect(tuple.map(['sub:1'], 'messages', [chunk, {}])[0].event).toBe('messages|sub:1');

    const legacy = new StreamMapper(['messages']);
    const first = legacy.map([], 'messages', [chunk, { langgraph_node: 'agent' }]);
    expect(first.map((e) => e.event)).toEqual(['messages/metadata', 'messages/partial']);
    expect(first[0].data).toEqual({ 'ai-1': { metadata: { langgraph_node: 'agent' } } });
    // The metadata of a message's first token, without the stream's tags (as LangGraph's API server sends it).
    const tagged = new StreamMapper(['messages']).map([], 'messages', [new AIMessageChunk({ content: 'x', id: 'ai-9' }), { langgraph_node: 'agent', tags: ['t'] }]);
    expect(tagged[0].data).toEqual({ 'ai-9': { metadata: { langgraph_node: 'agent' } } });
    const second = legacy.map([], 'messages', [new AIMessageChunk({ content: 'llo', id: 'ai-1' }), {}]);
    expect(second).toHaveLength(1);
    expect((second[0].data as AIMessageChunk[])[0].content).toBe('Hello');
    // A whole message (not a chunk) is no token: it shows up as complete with the state.
    expect(legacy.map([], 'messages', [new AIMessage({ content: 'x', id: 'ai-2' }), {}])).toEqual([]);
    const complete = legacy.map([], 'values', { messages: [new HumanMessage({ content: 'q', id: 'h' }), new AIMessage({ content: 'Hello', id: 'ai-1' })] });
    expect(complete.map((e) => e.event)).toEqual(['messages/complete']);
    expect((complete[0].data as { id: string }[]).map((m) => m.id)).toEqual(['h', 'ai-1']);
    expect(legacy.map([], 'values', { messages: [new HumanMessage({ content: 'q', id: 'h' })] })).toEqual([]);
  });

  it('notes an interrupt and the interrupts raised, without taking them for the state', async () => {
    const asking = new StateGraph(MessagesAnnotation)
      .addNode('ask', () => ({ messages: [new AIMessage(String(interrupt({ q: 'ok?' })))] }))
      .addEdge('__start__', 'ask')
      .compile({ checkpointer: new MemorySaver() });
    const mapper = new StreamMapper(['values']);
    const events = await mapped(mapper, asking as unknown as typeof parent, { messages: [new HumanMessage('go')] }, false, {
      configurable: { thread_id: 't' },
    });
    expect(mapper.interrupted).toBe(true);
    expect(mapper.interrupts).toEqual([expect.objectContaining({ value: { q: 'ok?' } })]);
    expect(events.at(-1)).toMatchObject({ event: 'values', data: { __interrupt__: [expect.objectContaining({ value: { q: 'ok?' } })] } });
    expect((mapper.lastValues as { messages: unknown[] }).messages).toHaveLength(1);
  });

  it('shapes checkpoints, tasks and debug payloads as LangGraph\'s API server does', async () => {
    const mapper = new StreamMapper(['checkpoints', 'tasks', 'debug']);
    const withSaver = new StateGraph(MessagesAnnotation)
      .addNode('inner', parent)
      .addEdge('__start__', 'inner')
      .compile({ checkpointer: new MemorySaver() });
    const events = await mapped(mapper, withSaver as unknown as typeof parent, { messages: [] }, false, { configurable: { thread_id: 't2' } });
    // `checkpoints`: the checkpoint's values, metadata and next nodes.
    const checkpoint = events.find((e) => e.event === 'checkpoints')!.data as Record<string, unknown>;
    expect(checkpoint).toEqual({ values: { messages: [] }, metadata: { source: 'input', step: -1, parents: {} }, next: ['__start__'] });
    // `debug` checkpoints: checkpoint refs with every key (a null map), public configs, subgraph tasks by checkpoint.
    const debugCheckpoints = events.filter((e) => e.event === 'debug' && (e.data as { type: string }).type === 'checkpoint');
    const second = (debugCheckpoints[1]!.data as { payload: Record<string, unknown> }).payload;
    expect(second).toMatchObject({
      checkpoint: { thread_id: 't2', checkpoint_ns: '', checkpoint_id: expect.any(String), checkpoint_map: null },
      parent_checkpoint: { thread_id: 't2', checkpoint_ns: '', checkpoint_id: expect.any(String), checkpoint_map: null },
      tasks: [{ name: 'inner', checkpoint: { thread_id: 't2', checkpoint_ns: expect.stringMatching(/^inner:/), checkpoint_id: null, checkpoint_map: null } }],
    });
    expect(second).not.toHaveProperty('parentConfig');
    expect((second['tasks'] as object[])[0]).not.toHaveProperty('state');
    expect(JSON.stringify(second['config'])).not.toContain('__pregel');
    expect(events.some((e) => e.event === 'tasks')).toBe(true);
    const debug = events.filter((e) => e.event === 'debug').map((e) => (e.data as { type: string }).type);
    expect(debug).toEqual(expect.arrayContaining(['checkpoint', 'task', 'task_result']));
  });

  it('passes checkpoint envelopes on to clients that stream values but not checkpoints', () => {
    const envelope = { id: 'c1', parent_id: 'c0', step: 0, source: 'loop' };
    expect(new StreamMapper(['values']).map(['sub:1'], 'checkpoints', envelope)).toEqual([{ event: 'checkpoints|sub:1', data: envelope }]);
    expect(new StreamMapper(['updates']).map([], 'checkpoints', envelope)).toEqual([]);
    expect(new StreamMapper(['values', 'checkpoints']).map([], 'checkpoints', envelope)).toEqual([]);
  });
});
