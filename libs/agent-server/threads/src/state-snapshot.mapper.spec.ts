import { AIMessage, HumanMessage } from '@langchain/core/messages';
import type { StateSnapshot } from '@langchain/langgraph';
import { configToCheckpoint, emptyThreadState, interruptsByTask, stateSnapshotToThreadState, taskConfigToCheckpoint } from './state-snapshot.mapper';

const config = (checkpointId: string, ns = '') => ({ configurable: { thread_id: 't1', checkpoint_ns: ns, checkpoint_id: checkpointId } });

describe('stateSnapshotToThreadState', () => {
  it('shows values as JSON, configs as checkpoints and the creation time in ISO form', () => {
    const snapshot: StateSnapshot = {
      values: { messages: [new HumanMessage({ content: 'hi', id: 'h1' }), new AIMessage({ content: 'hello', id: 'a1' })] },
      next: [],
      config: config('c2'),
      parentConfig: config('c1'),
      metadata: { source: 'loop', step: 1, parents: {} },
      createdAt: '2026-01-02T03:04:05.678Z',
      tasks: [],
    };
    const state = stateSnapshotToThreadState(snapshot);
    expect(state).toEqual({
      values: { messages: [expect.objectContaining({ type: 'human', content: 'hi', id: 'h1' }), expect.objectContaining({ type: 'ai', content: 'hello' })] },
      next: [],
      tasks: [],
      metadata: { source: 'loop', step: 1, parents: {} },
      created_at: '2026-01-02T03:04:05.678Z',
      checkpoint: { thread_id: 't1', checkpoint_ns: '', checkpoint_id: 'c2', checkpoint_map: null },
      parent_checkpoint: { thread_id: 't1', checkpoint_ns: '', checkpoint_id: 'c1', checkpoint_map: null },
      interrupts: [],
    });
  });

  it('shows tasks as LangGraph\'s API server does: errors as text, results or null, a subgraph task by its config or its state', () => {
    const nested: StateSnapshot = { values: { items: ['x'] }, next: ['ask'], config: config('s1', 'inner:task2'), tasks: [] };
    const snapshot: StateSnapshot = {
      values: {},
      next: ['tool', 'inner', 'other'],
      config: config('c3'),
      tasks: [
        { id: 'task1', name: 'tool', error: new TypeError('boom'), interrupts: [], path: ['__pregel_pull', 'tool'] },
        { id: 'task2', name: 'inner', interrupts: [{ id: 'i1', value: { question: 'ok?' } }], state: nested, result: { items: ['y'] } },
        { id: 'task3', name: 'other', interrupts: [], state: { configurable: { thread_id: 't1', checkpoint_ns: 'other:task3' } } },
      ],
    };
    const state = stateSnapshotToThreadState(snapshot);
    expect(state.tasks[0]).toEqual({ id: 'task1', name: 'tool', error: 'boom', interrupts: [], path: ['__pregel_pull', 'tool'], checkpoint: null, state: null, result: null });
    // With `subgraphs`, the subgraph's state and no checkpoint.
    expect(state.tasks[1]).toMatchObject({
      error: null,
      interrupts: [{ id: 'i1', value: { question: 'ok?' } }],
      checkpoint: null,
      state: { values: { items: ['x'] }, next: ['ask'], tasks: [], checkpoint: { thread_id: 't1', checkpoint_ns: 'inner:task2', checkpoint_id: 's1', checkpoint_map: null } },
      result: { items: ['y'] },
    });
    // The nested state carries no collected `interrupts` (the reference leaves it out; only a thread's own state has it).
    expect(state.tasks[1].state).not.toHaveProperty('interrupts');
    // Without, the config's `configurable` as it is.
    expect(state.tasks[2]).toMatchObject({ checkpoint: { thread_id: 't1', checkpoint_ns: 'other:task3' }, state: null, result: null });
    expect(state.tasks[2].checkpoint).not.toHaveProperty('checkpoint_id');
    expect(state.interrupts).toEqual([{ id: 'i1', value: { question: 'ok?' } }]);
    expect(interruptsByTask(state)).toEqual({ task2: [{ id: 'i1', value: { question: 'ok?' } }] });
  });

  it('has a checkpoint only where a config names a thread and a checkpoint, and an empty state without one', () => {
    expect(configToCheckpoint({})).toBeNull();
    expect(configToCheckpoint(undefined)).toBeNull();
    expect(configToCheckpoint({ configurable: { thread_id: 't', checkpoint_map: { '': 'c0' } } })).toBeNull();
    expect(configToCheckpoint({ configurable: { thread_id: 't', checkpoint_id: 'c1', checkpoint_map: { '': 'c0' } } })).toEqual({
      thread_id: 't',
      checkpoint_ns: '',
      checkpoint_id: 'c1',
      checkpoint_map: { '': 'c0' },
    });
    expect(taskConfigToCheckpoint({ configurable: { thread_id: 't', checkpoint_ns: 'sub:1' } })).toEqual({
      thread_id: 't',
      checkpoint_ns: 'sub:1',
      checkpoint_id: null,
      checkpoint_map: null,
    });
    const empty = emptyThreadState();
    expect(empty).toEqual({ values: {}, next: [], tasks: [], created_at: null, checkpoint: null, parent_checkpoint: null, interrupts: [] });
    expect(empty).not.toHaveProperty('metadata');
  });
});
