// Postgres restarted (`-m fast`, `-m immediate`) and stopped for a while under a load of agent-server runs and
// trace ingestion, on a scratch cluster of the test's own (never the shared server). Asserts: the process lives on
// with no unhandled error, requests during the outage answer 503 with Retry-After naming the database (never a
// 500), every accepted trace is stored once, every accepted run ends, a wait on a run cut by the outage finishes,
// and both services answer again within RECOVERY_BOUND_MS of the engine's return. Prints the measured figures.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import type { RunningService } from '@platform/http-server';
import { signIdentity } from '@platform/identity';
import { silentLogger } from '@platform/logging';
import { scratchPostgresAvailable, startScratchPostgresCluster, type ScratchPostgresCluster } from '@platform/testing';
import { loadAgentServerConfig } from '../../apps/agent-server/src/config';
import { startAgentServer } from '../../apps/agent-server/src/service';
import { loadTracingConfig } from '../../apps/tracing/src/config';
import { startTracing } from '../../apps/tracing/src/service';

jest.setTimeout(300_000);

const OUTAGE_MS = 8_000;
/** From the engine answering again to both services answering 2xx. */
const RECOVERY_BOUND_MS = 10_000;
/** From the engine's return to every accepted run having ended (lease 2 s, sweep 0.4 s, three 150 ms steps). */
const RUNS_END_BOUND_MS = 60_000;
/** A request that needs the database answers 503 within this while it is down (3 s of reconnecting, on a busy host). */
const SLOWEST_503_BOUND_MS = 15_000;
const SECRET = `faults-secret-${randomUUID()}`;
const FIXTURES = path.resolve(__dirname, '../../apps/agent-server/e2e/fixtures/langgraph.json');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Answer {
  status: number;
  body: string;
  retryAfter: string | null;
  ms: number;
}

const available = scratchPostgresAvailable('Postgres fault tests');
(available ? describe : describe.skip)('Postgres restarted and stopped under load', () => {
  let cluster: ScratchPostgresCluster;
  let agent: RunningService;
  let tracing: RunningService;
  const unhandled: unknown[] = [];
  const onUnhandled = (err: unknown) => unhandled.push(err);
  const requestId = randomUUID();
  const tenantId = randomUUID();
  const headers = { 'content-type': 'application/json', 'x-request-id': requestId, ...signIdentity(SECRET, { tenantId, organizationId: 'org', subject: 'faults' }, requestId) };

  async function call(base: string, method: string, route: string, body?: unknown, timeoutMs = 30_000): Promise<Answer> {
    const started = Date.now();
    try {
      const res = await fetch(`${base}${route}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(timeoutMs) });
      return { status: res.status, body: await res.text(), retryAfter: res.headers.get('retry-after'), ms: Date.now() - started };
    } catch (err) {
      return { status: 0, body: String(err), retryAfter: null, ms: Date.now() - started };
    }
  }

  beforeAll(async () => {
    process.on('uncaughtException', onUnhandled);
    process.on('unhandledRejection', onUnhandled);
    cluster = await startScratchPostgresCluster();
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query('CREATE DATABASE agent');
    await admin.query('CREATE DATABASE tracing');
    await admin.end();
    const on = (name: string) => cluster.url.replace(/\/postgres$/, `/${name}`);
    const common = { HOST: '127.0.0.1', PORT: '0', DATA_DIR: 'memory://', MIGRATE_ON_START: 'true', LOG_LEVEL: 'silent' };
    // One signing key for both (the Agent Server's own deployment key, the platform secret of tracing): the same
    // signed headers reach both.
    agent = await startAgentServer(
      loadAgentServerConfig({
        ...common,
        DEPLOYMENT_KEY: SECRET,
        DATABASE_URL: on('agent'),
        LANGGRAPH_CONFIG_PATH: FIXTURES,
        RUN_LEASE: '2s',
        RUN_HEARTBEAT_INTERVAL: '400ms',
        RUN_SWEEP_INTERVAL: '400ms',
        RUN_POLL_INTERVAL: '500ms',
        RUN_MAX_ATTEMPTS: '10',
        WAIT_KEEPALIVE_INTERVAL: '1s',
      }),
      silentLogger,
    );
    tracing = await startTracing(loadTracingConfig({ ...common, INTERNAL_SECRET: SECRET, GRPC_PORT: '0', DATABASE_URL: on('tracing') }), silentLogger);
  });

  afterAll(async () => {
    await agent?.stop().catch(() => undefined);
    await tracing?.stop().catch(() => undefined);
    await cluster?.destroy();
    process.off('uncaughtException', onUnhandled);
    process.off('unhandledRejection', onUnhandled);
  });

  it('stays up, answers 503 during the outage, loses and repeats nothing, and recovers', async () => {
    const answers: { service: string; at: number; answer: Answer }[] = [];
    const acceptedRuns: { threadId: string; runId: string }[] = [];
    const acceptedTraces = new Set<string>();
    let stopped = false;
    const note = (service: string, answer: Answer) => answers.push({ service, at: Date.now(), answer });

    const runLoad = async () => {
      while (!stopped) {
        const thread = await call(agent.url, 'POST', '/threads', {});
        note('agent', thread);
        if (thread.status !== 200) {
          await sleep(200);
          continue;
        }
        const threadId = (JSON.parse(thread.body) as { thread_id: string }).thread_id;
        const run = await call(agent.url, 'POST', `/threads/${threadId}/runs`, { assistant_id: 'slow', input: {}, config: { configurable: { delay_ms: 150 } } });
        note('agent', run);
        if (run.status === 200) acceptedRuns.push({ threadId, runId: (JSON.parse(run.body) as { run_id: string }).run_id });
        else await sleep(200);
      }
    };
    const ingestLoad = async () => {
      while (!stopped) {
        const id = randomUUID();
        // A trace refused with a 503 is sent again, as a client does, until it is accepted.
        for (;;) {
          const post = { id, trace_id: id, dotted_order: `20240501T120000000001Z${id}`, name: 'root', run_type: 'chain', start_time: '2024-05-01T12:00:00.000001Z' };
          const answer = await call(tracing.url, 'POST', '/api/v1/runs/batch', { post: [post] });
          note('tracing', answer);
          if (answer.status === 202) {
            acceptedTraces.add(id);
            break;
          }
          if (stopped) break;
          await sleep(200);
        }
      }
    };
    const recovery = async () => {
      const from = Date.now();
      for (;;) {
        const [a, t] = await Promise.all([call(agent.url, 'GET', '/threads/' + randomUUID()), call(tracing.url, 'GET', '/api/v1/sessions?limit=1')]);
        if (a.status === 404 && t.status === 200) return Date.now() - from;
        if (Date.now() - from > RECOVERY_BOUND_MS * 3) return Date.now() - from;
        await sleep(50);
      }
    };

    const loads = [runLoad(), runLoad(), ingestLoad(), ingestLoad()];
    const figures: Record<string, number> = {};
    await sleep(2_000);

    for (const mode of ['fast', 'immediate'] as const) {
      const t0 = Date.now();
      await cluster.restart(mode);
      figures[`restart -m ${mode}: pg_ctl ms`] = Date.now() - t0;
      figures[`restart -m ${mode}: recovery ms after the engine returned`] = await recovery();
      await sleep(2_000);
    }

    // A join on a run that the outage cuts: it must end (the run resumed) or fail with a 503, never hang.
    let waiting: Promise<Answer> = Promise.resolve({ status: 0, body: 'no run to join', retryAfter: null, ms: 0 });
    const waitThread = await call(agent.url, 'POST', '/threads', {});
    const waitRun = waitThread.status === 200 ? await call(agent.url, 'POST', `/threads/${(JSON.parse(waitThread.body) as { thread_id: string }).thread_id}/runs`, { assistant_id: 'slow', input: {}, config: { configurable: { delay_ms: 1_000 } } }) : undefined;
    if (waitRun?.status === 200) {
      const { thread_id: threadId, run_id: runId } = JSON.parse(waitRun.body) as { thread_id: string; run_id: string };
      acceptedRuns.push({ threadId, runId });
      waiting = call(agent.url, 'GET', `/threads/${threadId}/runs/${runId}/join`, undefined, 120_000);
      await sleep(300);
    }

    await cluster.stop('fast');
    const down = Date.now();
    await sleep(OUTAGE_MS);
    await cluster.start();
    const back = Date.now();
    figures['stop for ~8 s: recovery ms after the engine returned'] = await recovery();
    await sleep(2_000);
    stopped = true;
    await Promise.all(loads);
    const waited = await waiting;
    figures['join across the outage: ms'] = waited.ms;

    // Every accepted run ends (success, or error after its attempts): none is left pending or running.
    const statuses = new Map<string, string>();
    const deadline = Date.now() + RUNS_END_BOUND_MS;
    for (const { threadId, runId } of acceptedRuns) {
      for (;;) {
        const answer = await call(agent.url, 'GET', `/threads/${threadId}/runs/${runId}`);
        const status = answer.status === 200 ? (JSON.parse(answer.body) as { status: string }).status : `http ${answer.status}`;
        statuses.set(runId, status);
        if (!['pending', 'running'].includes(status) || Date.now() > deadline) break;
        await sleep(200);
      }
    }
    figures['all accepted runs ended: ms after the engine returned'] = Date.now() - back;

    // Every accepted trace is stored, once.
    const db = new pg.Client({ connectionString: cluster.url.replace(/\/postgres$/, '/tracing') });
    await db.connect();
    const stored = await db.query<{ id: string; n: string }>('SELECT id::text, count(*) AS n FROM runs WHERE id = ANY($1::uuid[]) GROUP BY id', [[...acceptedTraces]]);
    await db.end();

    // Requests sent while the engine was down (it stops first, then the loads go on) and answered before it returned.
    const during = answers.filter(({ at, answer }) => at - answer.ms >= down && at <= back);
    const unexpected = answers.filter(({ answer }) => ![200, 202, 503].includes(answer.status));
    const byStatus = (list: typeof answers) => list.reduce<Record<string, number>>((acc, { service, answer }) => ({ ...acc, [`${service} ${answer.status}`]: (acc[`${service} ${answer.status}`] ?? 0) + 1 }), {});
    const runStatuses = [...statuses.values()].reduce<Record<string, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});
    const slowest503 = Math.max(0, ...answers.filter(({ answer }) => answer.status === 503).map(({ answer }) => answer.ms));
    figures['slowest 503 answer ms'] = slowest503;
    process.stdout.write(
      `postgres faults: ${JSON.stringify({ figures, answers: byStatus(answers), duringOutage: byStatus(during), runs: runStatuses, runsAccepted: acceptedRuns.length, tracesAccepted: acceptedTraces.size, join: { status: waited.status, ms: waited.ms, tail: waited.body.trim().slice(0, 160) } }, null, 1)}\n`,
    );

    expect(unhandled).toEqual([]);
    expect(unexpected.map(({ service, answer }) => `${service} ${answer.status} ${answer.body.slice(0, 200)}`)).toEqual([]);
    expect(during.length).toBeGreaterThan(0);
    for (const { answer } of answers.filter(({ answer }) => answer.status === 503)) {
      expect(answer.retryAfter).toMatch(/^\d+$/);
      expect(JSON.parse(answer.body)).toEqual({ detail: 'database unavailable' });
    }
    expect(during.every(({ answer }) => answer.status === 503)).toBe(true);
    expect(slowest503).toBeLessThan(SLOWEST_503_BOUND_MS);
    expect(stored.rows.length).toBe(acceptedTraces.size);
    expect(stored.rows.every((row) => row.n === '1')).toBe(true);
    expect([...statuses.values()].filter((s) => s === 'pending' || s === 'running' || s.startsWith('http'))).toEqual([]);
    expect(figures['stop for ~8 s: recovery ms after the engine returned']).toBeLessThan(RECOVERY_BOUND_MS);
    expect([200, 503]).toContain(waited.status);
    expect(waited.ms).toBeLessThan(OUTAGE_MS + RUNS_END_BOUND_MS);
    // Agent and tracing still serve.
    expect((await call(agent.url, 'GET', '/ok')).status).toBe(200);
    expect((await call(tracing.url, 'GET', '/ready')).status).toBe(200);
  });
});
