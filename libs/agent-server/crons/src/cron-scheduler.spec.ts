import { systemAssistantId } from '@platform/agent-server-assistants';
import { silentLogger } from '@platform/logging';
import { createCron, type CreateCronInput } from './create-cron.usecase';
import { CronScheduler } from './cron-scheduler';
import { openCronsFixture, type CronsFixture } from './crons.testing';

// PGlite starts in a few seconds (WebAssembly), longer when test files run in parallel.
jest.setTimeout(90_000);

const CHAT = systemAssistantId('chat');
const hello = (text: string) => ({ input: { messages: [{ role: 'user', content: text }] } });

describe('CronScheduler firing real runs (Postgres when DATABASE_URL is set, else PGlite)', () => {
  let fx: CronsFixture;
  const scheduler = (batchSize?: number) => new CronScheduler({ crons: fx.crons, createRun: fx.createRun, logger: silentLogger, batchSize });
  const cron = (input: Partial<CreateCronInput>) => createCron(fx.deps, { thread_id: null, assistant_id: 'chat', schedule: '0 0 1 1 *', run: {}, ...input });
  const runsOf = (cronId: string) =>
    fx.db.sql.query<{ run_id: string; thread_id: string; status: string }>(
      `SELECT run_id::text AS run_id, thread_id::text AS thread_id, status FROM runs WHERE metadata->>'cron_id' = $1 ORDER BY created_at`,
      [cronId],
    );

  beforeAll(async () => {
    fx = await openCronsFixture();
  });
  afterAll(() => fx?.close());

  it('fires a due thread cron on its thread and schedules the next firing', async () => {
    const thread = await fx.threads.create({});
    const made = await cron({ thread_id: thread.thread_id, run: hello('ping'), metadata: { from: 'cron' } });
    expect(await scheduler().tick()).toEqual([]);

    await fx.makeDue(made.cron_id);
    const fired = await scheduler().tick();
    expect(fired).toEqual([{ cron_id: made.cron_id, run_id: expect.any(String), thread_id: thread.thread_id }]);
    const end = await fx.runs.waitForEnd(fired[0]!.run_id!);
    expect(end?.status).toBe('success');
    const run = await fx.runs.get(thread.thread_id, fired[0]!.run_id!);
    expect(run).toMatchObject({ assistant_id: CHAT, metadata: { from: 'cron', cron_id: made.cron_id } });
    expect((await fx.threads.get(thread.thread_id)).values).toMatchObject({ messages: [{ content: 'ping' }, { content: 'echo: ping' }] });

    const after = await fx.crons.get(made.cron_id);
    expect(Date.parse(after.next_run_date!)).toBeGreaterThan(Date.now());
    expect(after.updated_at).toBe(made.updated_at);
    expect(await scheduler().tick()).toEqual([]);
  });

  it('runs a stateless cron on a new thread, deleted after the run unless on_run_completed is keep', async () => {
    const deleting = await cron({ run: hello('a') });
    const keeping = await cron({ run: hello('b'), on_run_completed: 'keep' });
    await fx.makeDue(deleting.cron_id);
    await fx.makeDue(keeping.cron_id);
    const fired = await scheduler().tick();
    expect(fired.map((f) => f.cron_id).sort()).toEqual([deleting.cron_id, keeping.cron_id].sort());
    for (const firing of fired) expect((await fx.runs.waitForEnd(firing.run_id!))?.status).toBe('success');

    const kept = fired.find((f) => f.cron_id === keeping.cron_id)!;
    expect((await fx.threads.get(kept.thread_id!)).values).toMatchObject({ messages: [{ content: 'b' }, { content: 'echo: b' }] });
    // The new thread carries the run's metadata, cron_id included, as the reference stamps it: a search finds it.
    const found = await fx.threads.search({ metadata: { cron_id: keeping.cron_id }, limit: 10, offset: 0 });
    expect(found.map((t) => [t.thread_id, t.metadata])).toEqual([[kept.thread_id, { graph_id: 'chat', assistant_id: CHAT, cron_id: keeping.cron_id }]]);
    const deleted = fired.find((f) => f.cron_id === deleting.cron_id)!;
    // The run's end is announced as its temporary thread goes; give the delete a moment.
    for (let i = 0; i < 100 && (await fx.threads.find(deleted.thread_id!)); i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await fx.threads.find(deleted.thread_id!)).toBeNull();
  });

  it('leaves disabled and finished crons alone, and skips a firing whose run cannot be created', async () => {
    const disabled = await cron({ run: hello('x'), enabled: false });
    await fx.makeDue(disabled.cron_id);
    const broken = await cron({ run: hello('y') });
    await fx.db.sql.query(`UPDATE crons SET payload = payload || '{"stream_mode": "no-such-mode"}'::jsonb WHERE cron_id = $1::uuid`, [broken.cron_id]);
    await fx.makeDue(broken.cron_id);

    const fired = await scheduler().tick();
    expect(fired).toEqual([{ cron_id: broken.cron_id, error: expect.any(String) }]);
    expect(Date.parse((await fx.crons.get(broken.cron_id)).next_run_date!)).toBeGreaterThan(Date.now());
    expect(await runsOf(disabled.cron_id)).toEqual([]);
  });

  it('fires each due cron once with two schedulers claiming at the same time', async () => {
    const made = [];
    for (let i = 0; i < 12; i += 1) made.push(await cron({ run: hello(`c${i}`), on_run_completed: 'keep', metadata: { race: true } }));
    // Small batches, so the two interleave their claims.
    const [one, two] = [scheduler(3), scheduler(3)];
    const rounds = 3;
    for (let round = 0; round < rounds; round += 1) {
      for (const c of made) await fx.makeDue(c.cron_id);
      const [a, b] = await Promise.all([one.tick(), two.tick()]);
      const ids = [...a, ...b].map((f) => f.cron_id);
      expect(ids.sort()).toEqual(made.map((c) => c.cron_id).sort());
      expect([...a, ...b].every((f) => f.run_id)).toBe(true);
    }
    for (const c of made) {
      const runs = await runsOf(c.cron_id);
      expect(runs).toHaveLength(rounds);
      for (const run of runs) await fx.runs.waitForEnd(run.run_id);
    }
  });

  it('fires on its own once started, until stopped', async () => {
    const made = await cron({ run: hello('loop'), on_run_completed: 'keep' });
    const looping = new CronScheduler({ crons: fx.crons, createRun: fx.createRun, logger: silentLogger, intervalMs: 50 });
    looping.start();
    try {
      await fx.makeDue(made.cron_id);
      for (let i = 0; i < 200 && (await runsOf(made.cron_id)).length === 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 25));
    } finally {
      await looping.stop();
    }
    const [run] = await runsOf(made.cron_id);
    expect(run).toBeDefined();
    await fx.runs.waitForEnd(run!.run_id);
    await fx.makeDue(made.cron_id);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await runsOf(made.cron_id)).toHaveLength(1);
  });
});
