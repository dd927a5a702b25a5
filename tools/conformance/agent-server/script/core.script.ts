// Core API calls (assistants, threads, runs, streaming, store), as a client makes them through the SDK or raw.
import { section } from '../harness/step';
import { capture, kwargsOf } from '../harness/target';

const MISSING = '5b2f0e0c-2c71-4d7e-9d0a-3f6f3d5c9e11';
const hello = (text: string) => ({ messages: [{ role: 'user', content: text }] });

export const coreSteps = section('core', {
  'GET /ok': (t) => t.request('GET', '/ok'),

  'assistants.search system assistant of a graph': async (t) => {
    const found = await t.sdk().assistants.search({ graphId: 'agent' });
    if (found[0]) t.keep('assistant:agent', found[0].assistant_id);
    return found;
  },
  'assistants.get by graph id': (t) => capture(() => t.sdk().assistants.get('agent')),
  'assistants.create': async (t) => {
    const created = await t.sdk().assistants.create({
      graphId: 'agent',
      name: 'conformance',
      description: 'made by the harness',
      config: { configurable: { tone: 'dry' }, tags: ['harness'] },
      context: { user_name: 'Ann' },
      metadata: { team: 'a' },
    });
    t.keep('assistant:custom', created.assistant_id);
    return created;
  },
  'assistants.create duplicate id (if_exists raise)': (t) =>
    capture(() => t.sdk().assistants.create({ graphId: 'agent', assistantId: t.id('assistant:custom'), ifExists: 'raise' })),
  'assistants.create duplicate id (if_exists do_nothing)': (t) =>
    capture(() => t.sdk().assistants.create({ graphId: 'agent', assistantId: t.id('assistant:custom'), ifExists: 'do_nothing' })),
  'assistants.update': (t) => t.sdk().assistants.update(t.id('assistant:custom'), { metadata: { team: 'b' }, name: 'conformance v2' }),
  'assistants.getVersions': (t) => t.sdk().assistants.getVersions(t.id('assistant:custom')),
  'assistants.setLatest': (t) => capture(() => t.sdk().assistants.setLatest(t.id('assistant:custom'), 1)),
  'assistants.search by metadata': (t) => t.sdk().assistants.search({ metadata: { team: 'a' } }),
  'assistants.count': (t) => capture(() => t.sdk().assistants.count({ graphId: 'agent' })),
  'POST /assistants/search (X-Pagination headers)': (t) =>
    t.request('POST', '/assistants/search', { body: { graph_id: 'agent', limit: 1, offset: 0 }, keepHeaders: ['x-pagination-total', 'x-pagination-next'] }),
  'assistants.get missing': (t) => capture(() => t.sdk().assistants.get(MISSING)),
  'assistants.create on an unknown graph': (t) => capture(() => t.sdk().assistants.create({ graphId: 'nope' })),
  'assistants.delete': async (t) => {
    const created = await t.sdk().assistants.create({ graphId: 'agent', name: 'doomed' });
    t.keep('assistant:doomed', created.assistant_id);
    return capture(() => t.sdk().assistants.delete(created.assistant_id));
  },
  'assistants.get deleted': (t) => capture(() => t.sdk().assistants.get(t.id('assistant:doomed'))),

  'threads.create': async (t) => {
    const thread = await t.sdk().threads.create({ metadata: { kind: 'basic' } });
    t.keep('thread:basic', thread.thread_id);
    return thread;
  },
  'threads.create with an id, if_exists raise': (t) => capture(() => t.sdk().threads.create({ threadId: t.id('thread:basic'), ifExists: 'raise' })),
  'threads.create with an id, if_exists do_nothing': (t) =>
    capture(() => t.sdk().threads.create({ threadId: t.id('thread:basic'), ifExists: 'do_nothing' })),
  'threads.get': (t) => t.sdk().threads.get(t.id('thread:basic')),
  'threads.update metadata': (t) => t.sdk().threads.update(t.id('thread:basic'), { metadata: { kind: 'basic', extra: 1 } }),
  'threads.getState of a thread without runs': (t) => capture(() => t.sdk().threads.getState(t.id('thread:basic'))),
  'threads.getHistory of a thread without runs': (t) => capture(() => t.sdk().threads.getHistory(t.id('thread:basic'))),
  'threads.search by metadata': (t) => t.sdk().threads.search({ metadata: { kind: 'basic' } }),
  'threads.count by metadata': (t) => capture(() => t.sdk().threads.count({ metadata: { kind: 'basic' } })),
  'threads.get missing': (t) => capture(() => t.sdk().threads.get(MISSING)),
  'GET /threads/{id} not a uuid': (t) => t.request('GET', '/threads/not-a-uuid'),

  'runs.wait on a thread': async (t) => {
    const thread = await t.sdk().threads.create({ metadata: { kind: 'chat' } });
    t.keep('thread:chat', thread.thread_id);
    return t.sdk().runs.wait(thread.thread_id, 'agent', { input: hello('first') });
  },
  'threads.get after a run': (t) => t.sdk().threads.get(t.id('thread:chat')),
  'threads.getState after a run': (t) => t.sdk().threads.getState(t.id('thread:chat')),
  'runs.list': async (t) => {
    const runs = await t.sdk().runs.list(t.id('thread:chat'));
    if (runs[0]) t.keep('run:chat', runs[0].run_id);
    return runs;
  },
  'runs.get': (t) => t.sdk().runs.get(t.id('thread:chat'), t.id('run:chat')),
  'runs.create then join': async (t) => {
    const run = await t.sdk().runs.create(t.id('thread:chat'), 'agent', { input: hello('second'), metadata: { phase: 'second' } });
    t.keep('run:second', run.run_id);
    return { created: run, joined: await t.sdk().runs.join(t.id('thread:chat'), run.run_id) };
  },
  'runs.get after join': (t) => t.sdk().runs.get(t.id('thread:chat'), t.id('run:second')),
  'POST /threads/{id}/runs (Content-Location)': async (t) => {
    const answer = await t.request('POST', `/threads/${t.id('thread:chat')}/runs`, {
      body: { assistant_id: 'agent', input: hello('third') },
      keepHeaders: ['content-location'],
    });
    const runId = (answer.body as { run_id?: string } | null)?.run_id;
    if (runId) {
      t.keep('run:third', runId);
      await t.sdk().runs.join(t.id('thread:chat'), runId);
    }
    return answer;
  },
  'runs.get missing': (t) => capture(() => t.sdk().runs.get(t.id('thread:chat'), MISSING)),
  'runs.wait with an unknown assistant': (t) => capture(() => t.sdk().runs.wait(t.id('thread:chat'), 'nope', { input: hello('x') })),
  'runs.wait on a missing thread': (t) => capture(() => t.sdk().runs.wait(MISSING, 'agent', { input: hello('x') })),
  'runs.wait stateless': (t) => t.sdk().runs.wait(null, 'agent', { input: hello('stateless') }),
  'runs.stream stateless (values)': (t) => t.stream('POST', '/runs/stream', { body: { assistant_id: 'agent', input: hello('s') } }),
  'runs.stream values+updates+custom': async (t) => {
    const thread = await t.sdk().threads.create();
    t.keep('thread:stream', thread.thread_id);
    return t.stream('POST', `/threads/${thread.thread_id}/runs/stream`, {
      body: { assistant_id: 'agent', input: hello('stream me'), stream_mode: ['values', 'updates', 'custom'] },
    });
  },
  'runs.stream messages-tuple': (t) =>
    t.stream('POST', `/threads/${t.id('thread:stream')}/runs/stream`, {
      body: { assistant_id: 'agent', input: hello('tokens'), stream_mode: ['messages-tuple'] },
    }),
  'runs.stream messages (legacy)': (t) =>
    t.stream('POST', `/threads/${t.id('thread:stream')}/runs/stream`, {
      body: { assistant_id: 'agent', input: hello('legacy'), stream_mode: 'messages' },
    }),
  'runs.stream on an unknown assistant': (t) =>
    t.stream('POST', `/threads/${t.id('thread:stream')}/runs/stream`, { body: { assistant_id: 'nope', input: hello('x') } }),
  'runs: delayed run, reject a second, cancel the first': async (t) => {
    const thread = await t.sdk().threads.create();
    const first = await t.sdk().runs.create(thread.thread_id, 'agent', { input: hello('later'), afterSeconds: 30 });
    const second = await capture(() => t.sdk().runs.create(thread.thread_id, 'agent', { input: hello('now'), multitaskStrategy: 'reject' }));
    const cancel = await capture(() => t.sdk().runs.cancel(thread.thread_id, first.run_id, true));
    const after = await t.sdk().runs.get(thread.thread_id, first.run_id);
    return { first: first.status, second, cancel, after: after.status, thread: (await t.sdk().threads.get(thread.thread_id)).status };
  },
  'runs.wait on a graph that fails': async (t) => {
    const thread = await t.sdk().threads.create();
    t.keep('thread:failing', thread.thread_id);
    return t.request('POST', `/threads/${thread.thread_id}/runs/wait`, { body: { assistant_id: 'failing', input: { steps: [] } } });
  },
  'runs.list of the failed run': (t) => t.sdk().runs.list(t.id('thread:failing')),
  'threads.get of the failed run\'s thread': (t) => t.sdk().threads.get(t.id('thread:failing')),
  'threads.getState of the failed run\'s thread': (t) => t.sdk().threads.getState(t.id('thread:failing')),
  'runs.stream of a graph that fails': (t) =>
    t.stream('POST', `/threads/${t.id('thread:failing')}/runs/stream`, { body: { assistant_id: 'failing', input: { steps: [] }, stream_mode: ['updates'] } }),
  'runs.list by status': async (t) => (await t.sdk().runs.list(t.id('thread:failing'), { status: 'error' })).map((run) => run.status),
  'runs.wait with interrupt_before, then the state': async (t) => {
    const thread = await t.sdk().threads.create();
    const output = await t.sdk().runs.wait(thread.thread_id, 'agent', { input: hello('pause'), interruptBefore: ['respond'] });
    const state = await t.sdk().threads.getState(thread.thread_id);
    return { output, next: state.next, tasks: state.tasks, status: (await t.sdk().threads.get(thread.thread_id)).status };
  },
  'runs.stream events': async (t) => {
    const answer = await t.stream('POST', '/runs/stream', { body: { assistant_id: 'zod_agent', input: { items: ['e'] }, stream_mode: ['events'] } });
    // Event by event, the kind and the runnable: their run ids and timings differ by nature.
    return { status: answer.status, events: answer.events?.map((e) => ({ event: e.event, data: { kind: (e.data as { event?: string }).event, name: (e.data as { name?: string }).name } })) };
  },
  'runs.createBatch (stateless)': async (t) => {
    const runs = await t.sdk().runs.createBatch([1, 2].map((n) => ({ assistantId: 'zod_agent', input: { items: [`b${n}`] } })));
    return runs.map((run) => ({ run_id: run.run_id, status: run.status, metadata: run.metadata, kwargs: kwargsOf(run) }));
  },
  'runs.joinStream of a resumable run, from the start': async (t) => {
    const thread = await t.sdk().threads.create();
    const run = await t.sdk().runs.create(thread.thread_id, 'zod_agent', { input: { items: ['r'] }, streamMode: ['values', 'updates'], streamResumable: true });
    await t.sdk().runs.join(thread.thread_id, run.run_id);
    return t.stream('GET', `/threads/${thread.thread_id}/runs/${run.run_id}/stream`, { headers: { 'last-event-id': '-1' } });
  },
  'runs.joinStream of a run the thread does not have': (t) =>
    t.stream('GET', `/threads/${t.id('thread:chat')}/runs/00000000-0000-4000-8000-0000000000aa/stream`),
  'join the stream of a stateless run that does not exist': (t) => t.stream('GET', '/runs/00000000-0000-4000-8000-0000000000ab/stream'),
  'threads.search by status, sorted': async (t) =>
    (await t.sdk().threads.search({ status: 'error', sortBy: 'created_at', sortOrder: 'asc' })).map((thread) => thread.thread_id),
  'assistants.search sorted, with select': (t) => t.sdk().assistants.search({ graphId: 'agent', sortBy: 'name', sortOrder: 'asc', select: ['name', 'graph_id'] }),
  'threads.copy': async (t) => {
    const copy = await t.sdk().threads.copy(t.id('thread:chat'));
    t.keep('thread:copy', copy.thread_id);
    return copy;
  },
  'threads.getState of the copy': (t) => t.sdk().threads.getState(t.id('thread:copy')),
  'runs.delete': async (t) => capture(() => t.sdk().runs.delete(t.id('thread:chat'), t.id('run:third'))),
  'runs.get deleted': (t) => capture(() => t.sdk().runs.get(t.id('thread:chat'), t.id('run:third'))),
  'threads.getState after deleting its last run (its checkpoints go)': async (t) => {
    const state = await t.sdk().threads.getState(t.id('thread:chat'));
    return { values: state.values, next: state.next, step: state.metadata?.['step'], run: state.metadata?.['run_id'] };
  },
  'threads.delete': (t) => capture(() => t.sdk().threads.delete(t.id('thread:copy'))),
  'threads.get deleted': (t) => capture(() => t.sdk().threads.get(t.id('thread:copy'))),

  'store.putItem': (t) => capture(() => t.sdk().store.putItem(['conformance', 'a'], 'k1', { text: 'one', n: 1 })),
  'store.getItem': (t) => t.sdk().store.getItem(['conformance', 'a'], 'k1'),
  'store.getItem missing': (t) => capture(() => t.sdk().store.getItem(['conformance', 'a'], 'nope')),
  'store.searchItems with a filter': async (t) => {
    await t.sdk().store.putItem(['conformance', 'b'], 'k2', { text: 'two', n: 2 });
    return t.sdk().store.searchItems(['conformance'], { filter: { n: 2 } });
  },
  'store.listNamespaces': (t) => t.sdk().store.listNamespaces({ prefix: ['conformance'] }),
  'store.listNamespaces with a depth and a suffix': async (t) => ({
    depth: await t.sdk().store.listNamespaces({ maxDepth: 1 }),
    suffix: await t.sdk().store.listNamespaces({ suffix: ['b'] }),
  }),
  'store.searchItems written by a graph': async (t) => {
    // In key order: the order of unranked results is not part of the contract.
    const { items } = await t.sdk().store.searchItems(['memories', 'conformance'], { limit: 100 });
    return items.sort((a, b) => a.key.localeCompare(b.key));
  },
  'store.deleteItem': async (t) => ({
    deleted: await capture(() => t.sdk().store.deleteItem(['conformance', 'a'], 'k1')),
    after: await capture(() => t.sdk().store.getItem(['conformance', 'a'], 'k1')),
  }),
  'PUT /store/items with a dot in a label': (t) => t.request('PUT', '/store/items', { body: { namespace: ['a.b'], key: 'k', value: {} } }),
});
