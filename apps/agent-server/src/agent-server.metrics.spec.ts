import request from 'supertest';
import type { AgentServerDatabase } from '@platform/agent-server-data-access';
import { readRunQueueDepth } from '@platform/agent-server-run-execution';
import { addRun, createThreadRow, openRunsTestDatabase } from '@platform/agent-server-run-records/testing';
import { createHttpApp } from '@platform/http-server';
import { silentLogger } from '@platform/logging';
import { createAgentServerMetrics } from './agent-server.metrics';

describe('Agent Server /metrics: the run queue depth (Postgres with DATABASE_URL, else PGlite)', () => {
  let db: AgentServerDatabase;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ db, close } = await openRunsTestDatabase());
  });
  afterAll(() => close());

  const serve = (depth: () => Promise<{ queued: number; running: number }>) => {
    const metrics = createAgentServerMetrics({ deploymentId: 'd-1', depth, logger: silentLogger });
    return createHttpApp({ service: 'agent-server', logger: silentLogger, metrics, routes: () => undefined }).app;
  };
  const scrape = async (depth: () => Promise<{ queued: number; running: number }>) => (await request(serve(depth)).get('/metrics').expect(200)).text;

  it('exports the queued and running runs of the deployment, labelled with its id, at each scrape', async () => {
    const empty = await scrape(() => readRunQueueDepth(db.sql));
    expect(empty).toContain('agent_server_runs_queued{service="agent-server",deployment_id="d-1"} 0');
    expect(empty).toContain('agent_server_runs_running{service="agent-server",deployment_id="d-1"} 0');

    const thread = await createThreadRow(db);
    await addRun(db, thread, { startAs: { owner: 'replica-a', leaseMs: 30_000 } });
    await addRun(db, thread);
    await addRun(db, await createThreadRow(db));
    const busy = await scrape(() => readRunQueueDepth(db.sql));
    expect(busy).toContain('agent_server_runs_queued{service="agent-server",deployment_id="d-1"} 2');
    expect(busy).toContain('agent_server_runs_running{service="agent-server",deployment_id="d-1"} 1');
    expect(busy).toMatch(/# TYPE agent_server_runs_queued gauge/);
  });

  it('still answers a scrape when the database cannot be read, with the last depth it read', async () => {
    let reachable = true;
    const app = serve(() => (reachable ? Promise.resolve({ queued: 7, running: 3 }) : Promise.reject(new Error('connection refused'))));
    await request(app).get('/metrics').expect(200);
    reachable = false;
    const text = (await request(app).get('/metrics').expect(200)).text;
    expect(text).toContain('agent_server_runs_queued{service="agent-server",deployment_id="d-1"} 7');
    expect(text).toContain('agent_server_runs_running{service="agent-server",deployment_id="d-1"} 3');
  });
});
