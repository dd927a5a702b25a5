// Issue 17 §5: the shapes of states, tasks, checkpoints, debug/tasks/checkpoints stream events, errors and /info.
import { section } from '../harness/step';
import { capture, type TargetSession } from '../harness/target';

const nestedThread = async (t: TargetSession, name: string) => {
  const thread = await t.sdk().threads.create();
  return t.keep(name, thread.thread_id);
};

export const wireSteps = section('wire', {
  'GET /info': (t) => t.request('GET', '/info'),

  'runs.wait stopping on an interrupt two subgraphs down': async (t) =>
    t.sdk().runs.wait(await nestedThread(t, 'thread:nested'), 'nested', { input: { log: [] } }),
  'threads.get of the interrupted thread': (t) => t.sdk().threads.get(t.id('thread:nested')),
  'threads.getState: tasks with interrupts': (t) => t.sdk().threads.getState(t.id('thread:nested')),
  'threads.getState subgraphs=true: nested task states': (t) => t.sdk().threads.getState(t.id('thread:nested'), undefined, { subgraphs: true }),
  'threads.getHistory': async (t) => {
    const history = await t.sdk().threads.getHistory(t.id('thread:nested'));
    const older = history[1]?.checkpoint.checkpoint_id;
    if (older) t.keep('checkpoint:nested-older', older);
    return history;
  },
  'threads.getHistory limit and before (SDK)': async (t) => {
    const history = await t.sdk().threads.getHistory(t.id('thread:nested'), { limit: 1 });
    const before = history[0]?.checkpoint;
    return capture(() => t.sdk().threads.getHistory(t.id('thread:nested'), { limit: 2, before: { configurable: { ...before } } }));
  },
  'POST /threads/{id}/history limit and before (a checkpoint id)': async (t) => {
    const [latest] = await t.sdk().threads.getHistory(t.id('thread:nested'), { limit: 1 });
    return t.request('POST', `/threads/${t.id('thread:nested')}/history`, { body: { limit: 2, before: latest?.checkpoint.checkpoint_id } });
  },
  'GET /threads/{id}/state/{checkpoint_id}': (t) => t.request('GET', `/threads/${t.id('thread:nested')}/state/${t.id('checkpoint:nested-older')}`),
  'POST /threads/{id}/state/checkpoint': (t) =>
    t.request('POST', `/threads/${t.id('thread:nested')}/state/checkpoint`, {
      body: { checkpoint: { checkpoint_id: t.id('checkpoint:nested-older') } },
    }),
  'runs.wait resuming with Command': (t) => t.sdk().runs.wait(t.id('thread:nested'), 'nested', { command: { resume: 'yes' } }),
  'threads.getState after resuming': (t) => t.sdk().threads.getState(t.id('thread:nested')),

  'runs.stream debug': async (t) =>
    t.stream('POST', `/threads/${await nestedThread(t, 'thread:debug')}/runs/stream`, {
      body: { assistant_id: 'nested', input: { log: [] }, stream_mode: 'debug' },
    }),
  'runs.stream checkpoints': async (t) =>
    t.stream('POST', `/threads/${await nestedThread(t, 'thread:checkpoints')}/runs/stream`, {
      body: { assistant_id: 'nested', input: { log: [] }, stream_mode: 'checkpoints' },
    }),
  'runs.stream tasks with subgraphs': async (t) =>
    t.stream('POST', `/threads/${await nestedThread(t, 'thread:tasks')}/runs/stream`, {
      body: { assistant_id: 'nested', input: { log: [] }, stream_mode: ['tasks'], stream_subgraphs: true },
    }),
  'runs.stream debug+checkpoints with subgraphs, resuming': (t) =>
    t.stream('POST', `/threads/${t.id('thread:tasks')}/runs/stream`, {
      body: { assistant_id: 'nested', command: { resume: 'ok' }, stream_mode: ['debug', 'checkpoints'], stream_subgraphs: true },
    }),
  'runs.stream updates with subgraphs': async (t) =>
    t.stream('POST', `/threads/${await nestedThread(t, 'thread:updates')}/runs/stream`, {
      body: { assistant_id: 'nested', input: { log: [] }, stream_mode: ['updates', 'values'], stream_subgraphs: true },
    }),

  'threads.updateState returns the new checkpoint': async (t) => {
    const thread = await t.sdk().threads.create();
    t.keep('thread:update', thread.thread_id);
    await t.sdk().runs.wait(thread.thread_id, 'zod_agent', { input: { items: ['a'] } });
    return t.sdk().threads.updateState(thread.thread_id, { values: { items: ['b'] }, asNode: 'add' });
  },
  'threads.getState after updateState': (t) => t.sdk().threads.getState(t.id('thread:update')),
  'threads.updateState on a thread without a graph': async (t) => {
    const thread = await t.sdk().threads.create();
    return capture(() => t.sdk().threads.updateState(thread.thread_id, { values: { items: ['x'] } }));
  },
  'threads.updateState on a missing thread': (t) =>
    capture(() => t.sdk().threads.updateState('0d4e9c5e-2f0b-4a53-8f7e-000000000001', { values: { items: ['x'] } })),
  'threads.getState on a missing thread': (t) => capture(() => t.sdk().threads.getState('0d4e9c5e-2f0b-4a53-8f7e-000000000002')),

  'runs.wait with run metadata': async (t) => {
    const thread = await t.sdk().threads.create();
    t.keep('thread:meta', thread.thread_id);
    return t.sdk().runs.wait(thread.thread_id, 'agent', { input: { messages: [{ role: 'user', content: 'm' }] }, metadata: { origin: 'harness' } });
  },
  'threads.getHistory filtered by the run metadata': async (t) => {
    const history = await t.sdk().threads.getHistory(t.id('thread:meta'), { metadata: { origin: 'harness' } });
    return history.map((state) => ({ next: state.next, step: state.metadata?.['step'], origin: state.metadata?.['origin'] }));
  },
  'threads.getHistory filtered by metadata nothing has': (t) => t.sdk().threads.getHistory(t.id('thread:meta'), { metadata: { origin: 'elsewhere' } }),
});
