// Issue 17 §1: the project's `Auth` (src/auth.ts): alice and bob by bearer token, each filtered to what they own.
import { section } from '../harness/step';
import { capture, kwargsOf } from '../harness/target';

const ALICE = 'token-alice';
const BOB = 'token-bob';

export const authSteps = section('auth', {
  'an unknown token is refused': (t) => t.request('POST', '/threads/search', { token: 'token-mallory', body: {} }),
  '/info stays open with an unknown token': async (t) => (await t.request('GET', '/info', { token: 'token-mallory' })).status,
  'alice creates a thread (owner stamped)': async (t) => {
    const thread = await t.sdk({ token: ALICE }).threads.create({ metadata: { topic: 'alice' } });
    t.keep('thread:alice', thread.thread_id);
    return thread;
  },
  'bob creates a thread': async (t) => {
    const thread = await t.sdk({ token: BOB }).threads.create({ metadata: { topic: 'bob' } });
    t.keep('thread:bob', thread.thread_id);
    return thread.metadata;
  },
  "bob cannot read alice's thread": (t) => capture(() => t.sdk({ token: BOB }).threads.get(t.id('thread:alice'))),
  "bob cannot update alice's thread": (t) => capture(() => t.sdk({ token: BOB }).threads.update(t.id('thread:alice'), { metadata: { x: 1 } })),
  'bob searches threads: only his': async (t) => (await t.sdk({ token: BOB }).threads.search({ limit: 100 })).map((thread) => thread.metadata),
  'bob counts threads': (t) => capture(() => t.sdk({ token: BOB }).threads.count()),
  'alice runs on her thread (auth user in configurable)': async (t) =>
    t.sdk({ token: ALICE }).runs.wait(t.id('thread:alice'), 'factory', { input: {} }),
  "alice's run config": async (t) => {
    const [run] = await t.sdk({ token: ALICE }).runs.list(t.id('thread:alice'));
    return run ? { metadata: run.metadata, config: kwargsOf(run)['config'] } : null;
  },
  "bob joins the stream of alice's run (an error event, not an HTTP error)": async (t) => {
    const [run] = await t.sdk({ token: ALICE }).runs.list(t.id('thread:alice'));
    return t.stream('GET', `/threads/${t.id('thread:alice')}/runs/${run?.run_id ?? t.id('run:none')}/stream`, { token: BOB });
  },
  "bob cannot list runs of alice's thread": (t) => capture(() => t.sdk({ token: BOB }).runs.list(t.id('thread:alice'))),
  "bob cannot run on alice's thread": (t) => capture(() => t.sdk({ token: BOB }).runs.wait(t.id('thread:alice'), 'factory', { input: {} })),
  "bob cannot read alice's state or history": async (t) => ({
    state: await capture(() => t.sdk({ token: BOB }).threads.getState(t.id('thread:alice'))),
    history: await capture(() => t.sdk({ token: BOB }).threads.getHistory(t.id('thread:alice'))),
  }),
  "bob cannot copy alice's thread": (t) => capture(() => t.sdk({ token: BOB }).threads.copy(t.id('thread:alice'))),
  'bob may not delete threads (handler returns false)': (t) => capture(() => t.sdk({ token: BOB }).threads.delete(t.id('thread:bob'))),
  'alice creates an assistant (owner stamped)': async (t) => {
    const assistant = await t.sdk({ token: ALICE }).assistants.create({ graphId: 'agent', name: 'alice-assistant' });
    t.keep('assistant:alice', assistant.assistant_id);
    return assistant.metadata;
  },
  "bob cannot see alice's assistant": (t) => capture(() => t.sdk({ token: BOB }).assistants.get(t.id('assistant:alice'))),
  'bob searches assistants': async (t) => (await t.sdk({ token: BOB }).assistants.search({ limit: 100 })).map((a) => a.name),
  'alice writes to her namespace': (t) => capture(() => t.sdk({ token: ALICE }).store.putItem(['alice', 'notes'], 'n1', { text: 'mine' })),
  "bob cannot write to alice's namespace": (t) => capture(() => t.sdk({ token: BOB }).store.putItem(['alice', 'notes'], 'n2', { text: 'theirs' })),
  "bob cannot read alice's namespace": (t) => capture(() => t.sdk({ token: BOB }).store.getItem(['alice', 'notes'], 'n1')),
  'alice reads her item': (t) => capture(() => t.sdk({ token: ALICE }).store.getItem(['alice', 'notes'], 'n1')),
});
