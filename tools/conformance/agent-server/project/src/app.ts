// The project's own HTTP app: a custom route, and middleware that wraps every route (custom and core): it stamps
// a response header, and on request rewrites a thread's create body. A route asks the server it runs in through an
// SDK Client without URL (the loopback fetch) and logs with getLogger().
import { Client } from '@langchain/langgraph-sdk';
import { getLogger } from '@langchain/langgraph-sdk/logging';
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';

const logger = getLogger();

export const app = new Hono();

app.use(async (c, next) => {
  if (c.req.method === 'POST' && c.req.path === '/threads' && c.req.header('x-conformance-rewrite') === '1') {
    const body = (await c.req.raw.clone().json()) as { metadata?: Record<string, unknown> };
    c.req.raw = new Request(c.req.raw, { body: JSON.stringify({ ...body, metadata: { ...body.metadata, rewritten: true } }) });
  }
  await next();
  c.res.headers.set('x-conformance-middleware', 'seen');
});

app.get('/custom/hello', (c) => c.json({ hello: 'world', path: c.req.path }));

app.get('/custom/refuse', () => {
  throw new HTTPException(400, { message: 'the app refuses this' });
});

// A run's relative webhook (`/custom/webhook`) lands here; `/custom/webhooks` lists what came.
const webhooks: { run_id?: string; status?: string }[] = [];
app.post('/custom/webhook', async (c) => {
  webhooks.push((await c.req.json()) as { run_id?: string; status?: string });
  return c.json({ ok: true });
});
app.get('/custom/webhooks', (c) => c.json(webhooks));

app.post('/custom/echo', async (c) => c.json({ echoed: await c.req.json() }, 201));

app.get('/custom/graphs', async (c) => {
  const assistants = await new Client({ apiKey: null }).assistants.search({ metadata: { created_by: 'system' }, limit: 100 });
  const graphs = [...new Set(assistants.map((assistant) => assistant.graph_id))].sort();
  logger.info('graphs listed', { count: graphs.length });
  return c.json({ graphs });
});
