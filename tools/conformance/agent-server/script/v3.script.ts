// Issue 17 §6: SDK 1.15 thread-centric streaming (`/threads/{id}/commands`, `/threads/{id}/stream/events`).
import { section } from '../harness/step';
import { capture } from '../harness/target';

export const v3Steps = section('v3', {
  'client.threads.stream: a run and its output': async (t) => {
    const created = await t.sdk().threads.create();
    t.keep('thread:v3', created.thread_id);
    const thread = t.sdk().threads.stream(created.thread_id, { assistantId: 'zod_agent' });
    try {
      const run = await capture(() => thread.submitRun({ input: { items: ['v3'] } }));
      const output = await Promise.race([thread.output, new Promise((resolve) => setTimeout(() => resolve('(no output in 10 s)'), 10_000))]);
      return { run, output };
    } finally {
      await thread.close().catch(() => undefined);
    }
  },
  'state after a v3 run': (t) => capture(() => t.sdk().threads.getState(t.id('thread:v3'))),
  'POST /threads/{id}/commands with an unknown method': (t) =>
    t.request('POST', `/threads/${t.id('thread:v3')}/commands`, { body: { id: 1, method: 'no.such.method', params: {} } }),
});
