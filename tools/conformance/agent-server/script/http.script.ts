// Issue 17 §2 and §3: the project's Hono app (src/app.ts) in front of the core routes, and its UI bundle.
import { section } from '../harness/step';
import { kwargsOf } from '../harness/target';

export const httpSteps = section('http', {
  'GET a custom route': (t) => t.request('GET', '/custom/hello', { keepHeaders: ['x-conformance-middleware'] }),
  'POST a custom route': (t) => t.request('POST', '/custom/echo', { body: { ping: 1 }, keepHeaders: ['x-conformance-middleware'] }),
  'the middleware wraps a core route': (t) => t.request('GET', '/ok', { keepHeaders: ['x-conformance-middleware'] }),
  'the middleware rewrites a request body': async (t) => {
    const answer = await t.request('POST', '/threads', { body: { metadata: { via: 'rewrite' } }, headers: { 'x-conformance-rewrite': '1' } });
    return { status: answer.status, metadata: (answer.body as { metadata?: unknown } | null)?.metadata };
  },
  'a custom route that does not exist': (t) => t.request('GET', '/custom/nope'),
  'a custom route that throws an HTTPException': (t) => t.request('GET', '/custom/refuse'),
  "a run's relative webhook reaches the project's route": async (t) => {
    const thread = await t.sdk().threads.create();
    const run = await t.sdk().runs.create(thread.thread_id, 'factory', { input: {}, webhook: '/custom/webhook' });
    await t.sdk().runs.join(thread.thread_id, run.run_id);
    for (let i = 0; i < 100; i++) {
      const hooks = (await (await t.fetch('GET', '/custom/webhooks')).json()) as { run_id?: string; status?: string }[];
      const hook = hooks.find((h) => h.run_id === run.run_id);
      if (hook) return { webhook: kwargsOf(run)['webhook'], status: hook.status };
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return { webhook: kwargsOf(run)['webhook'], status: 'never delivered' };
  },
  'a Client without apiUrl in a custom route reaches the same server': (t) => t.request('GET', '/custom/graphs'),
  'x-* request headers reach the run config': async (t) => {
    const thread = await t.sdk().threads.create();
    const run = await t.sdk({ headers: { 'x-conformance-flavour': 'spicy' } }).runs.create(thread.thread_id, 'factory', { input: {} });
    await t.sdk().runs.join(thread.thread_id, run.run_id);
    return (kwargsOf(run)['config'] as { configurable?: Record<string, unknown> }).configurable?.['x-conformance-flavour'] ?? null;
  },
});

export const uiSteps = section('ui', {
  'POST /ui/{graph_id}': (t) => t.request('POST', '/ui/agent', { body: { name: 'card' } }),
  'GET the UI script': async (t) => {
    const res = await t.fetch('GET', '/ui/agent/entrypoint.js');
    const text = await res.text();
    return { status: res.status, type: res.headers.get('content-type'), global: text.includes('__LGUI_agent'), renders: text.includes('conformance-card') };
  },
  'POST /ui/{graph_id} of a graph without UI': (t) => t.request('POST', '/ui/nested', { body: { name: 'card' } }),
});
