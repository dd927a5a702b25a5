// Issue 17 §6: SDK 1.15 thread-centric streaming (`/threads/{id}/commands`, `/threads/{id}/stream/events`).
import type { ThreadStream } from '@langchain/langgraph-sdk';
import { section } from '../harness/step';
import { capture, type TargetSession } from '../harness/target';

const hello = (text: string) => ({ messages: [{ role: 'user', content: text }] });
const ALL_CHANNELS = ['values', 'updates', 'messages', 'tools', 'custom', 'tasks', 'lifecycle', 'input'] as const;

type Event = { method: string; params: { namespace: string[]; node?: string; data: Record<string, unknown> } };
const isRootEnd = (e: Event) => e.method === 'lifecycle' && e.params.namespace.length === 0 && ['completed', 'failed', 'interrupted'].includes(String(e.params.data['event']));

/**
 * The thread's events as a late subscriber of the SDK gets them (the server replays the run), until the run ends:
 * method, namespace, node and data of each, without seq and timestamps (each server numbers its own way).
 */
async function replayed(t: TargetSession, threadId: string, assistantId: string, channels: readonly string[] = ALL_CHANNELS): Promise<unknown> {
  const thread = t.sdk().threads.stream(threadId, { assistantId });
  try {
    const subscription = await thread.subscribe({ channels: [...channels] as never });
    const events: unknown[] = [];
    const reading = (async () => {
      for await (const event of subscription as AsyncIterable<Event>) {
        events.push({ method: event.method, namespace: event.params.namespace, ...(event.params.node ? { node: event.params.node } : {}), data: event.params.data });
        if (isRootEnd(event)) return events;
      }
      return events;
    })();
    return await Promise.race([reading, new Promise((resolve) => setTimeout(() => resolve({ timedOut: events }), 10_000))]);
  } finally {
    await thread.close().catch(() => undefined);
  }
}

async function settled(thread: ThreadStream): Promise<unknown> {
  return Promise.race([thread.output, new Promise((resolve) => setTimeout(() => resolve('(no output in 10 s)'), 10_000))]);
}

export const v3Steps = section('v3', {
  'client.threads.stream: a run and its output': async (t) => {
    const created = await t.sdk().threads.create();
    t.keep('thread:v3', created.thread_id);
    const thread = t.sdk().threads.stream(created.thread_id, { assistantId: 'zod_agent' });
    try {
      const run = await capture(() => thread.submitRun({ input: { items: ['v3'] } }));
      return { run, output: await settled(thread) };
    } finally {
      await thread.close().catch(() => undefined);
    }
  },
  'state after a v3 run': (t) => capture(() => t.sdk().threads.getState(t.id('thread:v3'))),
  'POST /threads/{id}/commands with an unknown method': (t) =>
    t.request('POST', `/threads/${t.id('thread:v3')}/commands`, { body: { id: 1, method: 'no.such.method', params: {} } }),
  'thread.subscribe: the v3 run replayed as protocol events': (t) => replayed(t, t.id('thread:v3'), 'zod_agent'),
  'run.start on the chat graph: streamed messages, values, updates and lifecycle': async (t) => {
    const created = await t.sdk().threads.create();
    t.keep('thread:v3-chat', created.thread_id);
    const thread = t.sdk().threads.stream(created.thread_id, { assistantId: 'agent' });
    try {
      const run = await capture(() => thread.run.start({ input: hello('stream me') }));
      return { run, output: await settled(thread), events: await replayed(t, created.thread_id, 'agent') };
    } finally {
      await thread.close().catch(() => undefined);
    }
  },
  'nested interrupts: input.requested, then input.respond resumes': async (t) => {
    const created = await t.sdk().threads.create();
    const thread = t.sdk().threads.stream(created.thread_id, { assistantId: 'nested' });
    try {
      await thread.run.start({ input: { log: ['start'] } });
      await settled(thread);
      const asked = { interrupted: thread.interrupted, interrupts: thread.interrupts.map(({ payload, namespace }) => ({ payload, namespace })) };
      const events = await replayed(t, created.thread_id, 'nested', ['lifecycle', 'input', 'updates']);
      const [first] = thread.interrupts;
      const respond = first ? await capture(() => thread.input.respond({ namespace: first.namespace, interrupt_id: first.interruptId, response: 'yes' })) : 'no interrupt';
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const state = await capture(() => t.sdk().threads.getState(created.thread_id));
      return { asked, events, respond, values: (state as { values?: unknown }).values ?? state };
    } finally {
      await thread.close().catch(() => undefined);
    }
  },
  'POST /threads/{id}/commands run.start without an assistant': (t) =>
    t.request('POST', `/threads/${t.id('thread:v3')}/commands`, { body: { id: 2, method: 'run.start', params: { input: {} } } }),
  'POST /threads/{id}/commands state.get': (t) =>
    t.request('POST', `/threads/${t.id('thread:v3')}/commands`, { body: { id: 3, method: 'state.get', params: { namespace: [], keys: ['items'] } } }),
});
