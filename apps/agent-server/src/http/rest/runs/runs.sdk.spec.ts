import { Client } from '@langchain/langgraph-sdk';
import pg from 'pg';
import { runCreateSchema } from '@platform/agent-server-run-records';
import { receiveWebhooks, startTestAgentServer, type TestAgentServer } from '../../agent-server.testing';

type Chunk = { event: string; data: unknown; id?: string };
const message = (content: string) => ({ messages: [{ role: 'user', content }] });
const contents = (values: unknown) => ((values as { messages?: { content: unknown }[] }).messages ?? []).map((m) => m.content);
const slow = (ms: number) => ({ configurable: { delay_ms: ms } });

async function collect(stream: AsyncIterable<Chunk>): Promise<Chunk[]> {
  const out: Chunk[] = [];
  for await (const chunk of stream) out.push(chunk);
  return out;
}

/**
 * The whole agent server (runs, threads, assistants) on a database of its own — Postgres with DATABASE_URL, else
 * embedded PGlite — driven by the official SDK with gateway-signed headers. The end-to-end suites repeat these
 * through the gateway, with replicas, on Postgres.
 */
describe('runs through the official SDK (one server, Postgres or PGlite)', () => {
  let running: TestAgentServer;
  let client: Client;

  beforeAll(async () => {
    running = await startTestAgentServer({ env: { SSE_HEARTBEAT_INTERVAL: '200ms' } });
    client = new Client({ apiUrl: running.server.url, apiKey: null, defaultHeaders: running.headers, callerOptions: { maxRetries: 0 } });
  });
  afterAll(() => running?.stop());

  it('waits on stateless and thread runs and streams several modes with numbered events', async () => {
    expect(contents(await client.runs.wait(null, 'slow', { input: message('solo'), config: slow(1) }))).toEqual(['solo', 'step 1', 'step 2', 'step 3']);
    const thread = await client.threads.create();
    const chunks = await collect(client.runs.stream(thread.thread_id, 'progress', { input: message('go'), streamMode: ['updates', 'custom'] }));
    expect(chunks.map((c) => c.event)).toEqual(['metadata', 'custom', 'custom', 'custom', 'updates']);
    expect(chunks.map((c) => c.id)).toEqual(['0', '1', '2', '3', '4']);
    expect(await client.threads.get(thread.thread_id)).toMatchObject({ status: 'idle', metadata: { graph_id: 'progress' } });
  });

  it('validates a run-creating body once (the route parses it and hands it on parsed)', async () => {
    const parse = jest.spyOn(runCreateSchema, 'safeParse');
    try {
      expect(contents(await client.runs.wait(null, 'slow', { input: message('once'), config: slow(1) }))).toEqual(['once', 'step 1', 'step 2', 'step 3']);
      const thread = await client.threads.create();
      await client.runs.wait(thread.thread_id, 'slow', { input: message('once'), config: slow(1) });
      expect(parse).toHaveBeenCalledTimes(2);
    } finally {
      parse.mockRestore();
    }
  });

  it('runs a graph whose state holds U+0000 and a lone surrogate, and refuses them in requests', async () => {
    const thread = await client.threads.create();
    const config = { configurable: { delay_ms: 1, binary: true } };
    const exact = ['bin', 'step 1 \u0000\ud800', 'step 2 \u0000\ud800', 'step 3 \u0000\ud800'];
    expect(contents(await client.runs.wait(thread.thread_id, 'slow', { input: message('bin'), config }))).toEqual(exact);
    expect(contents((await client.threads.getState(thread.thread_id)).values)).toEqual(exact);
    // The thread row caches the state as jsonb, which cannot hold them: its copy drops U+0000 and marks the surrogate.
    const cached = await client.threads.get(thread.thread_id);
    expect(cached.status).toBe('idle');
    expect(contents(cached.values)).toEqual(['bin', ...[1, 2, 3].map((n) => `step ${n} \ufffd`)]);
    expect(contents(await client.runs.wait(null, 'slow', { input: message('solo'), config }))).toEqual(['solo', ...exact.slice(1)]);

    const refused = await fetch(`${running.server.url}/threads/${thread.thread_id}/runs/wait`, {
      method: 'POST',
      headers: { ...running.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ assistant_id: 'slow', input: message('a\u0000b') }),
    });
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { detail: unknown }).detail).toEqual([
      { loc: ['body', 'input', 'messages', 0, 'content'], msg: 'String should not contain the null character (\\u0000)', type: 'value_error' },
    ]);
  });

  it('queues runs of a thread in arrival order (enqueue) and the state holds every message in order', async () => {
    const thread = await client.threads.create();
    const runs = [];
    for (const text of ['a', 'b', 'c']) runs.push(await client.runs.create(thread.thread_id, 'slow', { input: message(text), config: slow(20) }));
    await client.runs.join(thread.thread_id, runs[2].run_id);
    const steps = ['step 1', 'step 2', 'step 3'];
    expect(contents((await client.threads.getState(thread.thread_id)).values)).toEqual(['a', ...steps, 'b', ...steps, 'c', ...steps]);
  });

  it('stops on interrupt() and resumes with a command', async () => {
    const thread = await client.threads.create();
    const paused = (await client.runs.wait(thread.thread_id, 'approval', { input: message('ship?') })) as Record<string, unknown>;
    expect(paused['__interrupt__']).toEqual([expect.objectContaining({ value: { question: 'Approve?' } })]);
    expect((await client.threads.get(thread.thread_id)).status).toBe('interrupted');
    expect(contents(await client.runs.wait(thread.thread_id, 'approval', { command: { resume: 'no' } }))).toEqual(['ship?', 'answer: no']);
  });

  it('rolls back an executing run without a trace, and cancels with interrupt', async () => {
    const thread = await client.threads.create();
    const doomed = await client.runs.create(thread.thread_id, 'slow', { input: message('doomed'), config: slow(250) });
    const deadline = Date.now() + 10_000;
    while (!contents((await client.threads.getState(thread.thread_id)).values).includes('step 1') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const winner = await client.runs.create(thread.thread_id, 'slow', { input: message('winner'), config: slow(1), multitaskStrategy: 'rollback' });
    await client.runs.join(thread.thread_id, winner.run_id);
    await expect(client.runs.get(thread.thread_id, doomed.run_id)).rejects.toMatchObject({ status: 404 });
    expect(JSON.stringify(await client.threads.getHistory(thread.thread_id, { limit: 50 }))).not.toContain('doomed');

    const stopped = await client.runs.create(thread.thread_id, 'slow', { input: message('stop'), config: slow(500) });
    await client.runs.cancel(thread.thread_id, stopped.run_id, true);
    expect((await client.runs.get(thread.thread_id, stopped.run_id)).status).toBe('interrupted');
  });

  // Reads the checkpoint tables next to the server: Postgres only (PGlite lives inside the server).
  (process.env['DATABASE_URL'] ? it : it.skip)('leaves no checkpoint of a thread deleted under its running run, not even those it writes afterwards', async () => {
    const thread = await client.threads.create();
    const started = Date.now();
    await client.runs.create(thread.thread_id, 'slow', { input: message('orphan'), config: slow(300) });
    while (!contents((await client.threads.getState(thread.thread_id)).values).includes('step 1') && Date.now() < started + 10_000) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await client.threads.delete(thread.thread_id);
    // The run learns of it only when it ends (its next heartbeat is 10 s away): it writes steps 2 and 3 (~600 ms)
    // under the deleted thread's id first.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + 3_000 - Date.now())));
    const db = new pg.Client({ connectionString: running.databaseUrl });
    await db.connect();
    try {
      const count = async () =>
        Number(
          (
            await db.query<{ n: string }>(
              `SELECT (SELECT count(*) FROM checkpoints WHERE thread_id = $1) + (SELECT count(*) FROM checkpoint_blobs WHERE thread_id = $1)
                 + (SELECT count(*) FROM checkpoint_writes WHERE thread_id = $1) AS n`,
              [thread.thread_id],
            )
          ).rows[0].n,
        );
      // On a slow machine the run may still be ending: give it time, but never accept rows that stay.
      let rows = await count();
      for (const deadline = Date.now() + 10_000; rows > 0 && Date.now() < deadline; rows = await count()) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(rows).toBe(0);
    } finally {
      await db.end();
    }
  });

  // A trigger next to the server makes the database refuse one run's end: Postgres only (PGlite lives inside the server).
  (process.env['DATABASE_URL'] ? it : it.skip)('ends a run in error at once when the database refuses its result, without executing it again', async () => {
    const db = new pg.Client({ connectionString: running.databaseUrl });
    await db.connect();
    try {
      await db.query(`CREATE FUNCTION refuse_marked_values() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF NEW."values"::text LIKE '%refuse this state%' THEN RAISE EXCEPTION 'state refused' USING ERRCODE = '22023'; END IF;
          RETURN NEW;
        END $$`);
      await db.query(`CREATE TRIGGER refuse_marked_values BEFORE UPDATE ON threads FOR EACH ROW EXECUTE FUNCTION refuse_marked_values()`);
      const hook = await receiveWebhooks();
      const thread = await client.threads.create();
      const started = Date.now();
      const waited = client.runs.wait(thread.thread_id, 'slow', { input: message('refuse this state'), config: slow(1), webhook: hook.url });
      await expect(waited).rejects.toThrow("RunEndRefused: The database refused the run's result: state refused");
      for (const deadline = Date.now() + 5_000; hook.received.length === 0 && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 20));
      hook.close();
      expect(hook.received).toEqual([expect.objectContaining({ status: 'error', error: { error: 'RunEndRefused', message: expect.stringContaining('state refused') } })]);
      // Not after lease lapses and attempts (30 s each): the first attempt ends it.
      expect(Date.now() - started).toBeLessThan(10_000);
      const [run] = await client.runs.list(thread.thread_id);
      expect(run).toMatchObject({ status: 'error' });
      const attempts = await db.query<{ attempt: number }>('SELECT attempt FROM runs WHERE run_id = $1', [run?.run_id]);
      expect(attempts.rows).toEqual([{ attempt: 1 }]);
      expect(await client.threads.get(thread.thread_id)).toMatchObject({ status: 'error' });
    } finally {
      await db.query('DROP TRIGGER IF EXISTS refuse_marked_values ON threads').catch(() => undefined);
      await db.end();
    }
  });

  it('replays a run from Last-Event-ID', async () => {
    const thread = await client.threads.create();
    const run = await client.runs.create(thread.thread_id, 'slow', { input: message('again'), config: slow(1), streamMode: 'updates' });
    await client.runs.join(thread.thread_id, run.run_id);
    const all = await collect(client.runs.joinStream(thread.thread_id, run.run_id, { lastEventId: '-1' }));
    expect(all.map((c) => `${c.id}:${c.event}`)).toEqual(['0:metadata', '1:updates', '2:updates', '3:updates']);
    const tail = await collect(client.runs.joinStream(thread.thread_id, run.run_id, { lastEventId: '1' }));
    expect(tail.map((c) => c.id)).toEqual(['2', '3']);
  });
});
