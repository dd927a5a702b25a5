import { openAgentServerDatabase, type AgentServerDatabase } from '@platform/agent-server-data-access';
import { silentLogger } from '@platform/logging';
import { type RunEnd, type StoredEvent, donePayload, RUN_CHANNELS, createRunRepository } from '@platform/agent-server-run-records';
import { createRunEventRepository, RunStreamHub, type RunSubscription } from '@platform/agent-server-run-streams';
import { addRun, createThreadRow, openRunsTestDatabase } from '@platform/agent-server-run-records/testing';
import { createRunQueueRepository } from './run-queue.repository';

/** One replica's hub on its own connections to the shared database. */
function hubOn(db: AgentServerDatabase, memoryLimit = 2_000) {
  return new RunStreamHub({
    runs: createRunRepository(db.sql),
    events: createRunEventRepository(db.sql),
    notifications: db.notifications,
    logger: silentLogger,
    flushMs: 5,
    memoryLimit,
  });
}

async function take(subscription: RunSubscription, count: number): Promise<StoredEvent[]> {
  const events: StoredEvent[] = [];
  while (events.length < count) {
    const next = await subscription.next();
    if (next.done) break;
    events.push(next.value);
  }
  return events;
}

async function rest(subscription: RunSubscription): Promise<StoredEvent[]> {
  const events: StoredEvent[] = [];
  for await (const event of subscription) events.push(event);
  return events;
}

const seqs = (events: StoredEvent[]) => events.map((e) => e.seq);

describe('run streams: event log, resume and cross-replica readers', () => {
  let db: AgentServerDatabase;
  let other: AgentServerDatabase;
  let close: () => Promise<void>;
  let here: RunStreamHub;
  let there: RunStreamHub;

  beforeAll(async () => {
    const opened = await openRunsTestDatabase();
    ({ db, close } = opened);
    // Postgres: a second pool and listener, as a second replica has. PGlite: one instance is all there is.
    other = opened.url ? await openAgentServerDatabase({ url: opened.url, dataDir: 'unused' }) : db;
    here = hubOn(db, 3);
    there = hubOn(other);
    await here.start();
    await there.start();
  });
  afterAll(async () => {
    await here.stop();
    await there.stop();
    if (other !== db) await other.close();
    await close();
  });

  const startRun = async (owner: string) => (await addRun(db, await createThreadRow(db), { startAs: { owner, leaseMs: 30_000 } })).run;
  const finish = async (runId: string, owner: string, events: StoredEvent[]) =>
    createRunQueueRepository(db.sql).finish({ runId, owner, status: 'success', output: '{"ok":true}', events, threadStatus: 'idle', deleteThread: false });

  it('gives a local reader every event from the start, reading what left memory from the database', async () => {
    const run = await startRun('here');
    const log = here.openLog(run.run_id, 0);
    for (let i = 0; i < 6; i++) log.append('values', { i });
    await log.flush();
    const reader = await here.subscribe(run.run_id, -1);
    const first = await take(reader, 6);
    expect(seqs(first)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(first[4]).toEqual({ seq: 4, event: 'values', data: '{"i":4}' });
    log.append('updates', { last: true });
    await finish(run.run_id, 'here', await log.drain());
    here.closeLog(log, { status: 'success', output: '{"ok":true}' });
    expect(seqs(await rest(reader))).toEqual([6]);
  });

  it('resumes after a given event, or with the next one only (live)', async () => {
    const run = await startRun('here');
    const log = here.openLog(run.run_id, 0);
    for (let i = 0; i < 4; i++) log.append('values', { i });
    const resumed = await here.subscribe(run.run_id, 1);
    const live = await here.subscribe(run.run_id, 'live');
    log.append('values', { i: 4 });
    await finish(run.run_id, 'here', await log.drain());
    here.closeLog(log, { status: 'success', output: null });
    expect(seqs(await rest(resumed))).toEqual([2, 3, 4]);
    expect(seqs(await rest(live))).toEqual([4]);
  });

  it('streams a run executing on another replica, as it goes, and ends with it', async () => {
    const run = await startRun('here');
    const log = here.openLog(run.run_id, 0);
    const reader = await there.subscribe(run.run_id, -1);
    const ended = there.waitForEnd(run.run_id);
    log.append('metadata', { run_id: run.run_id });
    log.append('values', { step: 1 });
    // Flushed batches are announced with NOTIFY; the other replica reads them from the database.
    expect(seqs(await take(reader, 2))).toEqual([0, 1]);
    log.append('values', { step: 2 });
    await finish(run.run_id, 'here', await log.drain());
    here.closeLog(log, { status: 'success', output: '{"ok":true}' });
    expect(seqs(await rest(reader))).toEqual([2]);
    expect(await ended).toEqual({ status: 'success', output: '{"ok":true}' });
    // After the end, a late reader replays everything from the database.
    expect(seqs(await rest(await there.subscribe(run.run_id, -1)))).toEqual([0, 1, 2]);
  });

  it('waits for runs that ended already, and reports runs that do not exist', async () => {
    const run = await startRun('here');
    await finish(run.run_id, 'here', []);
    expect(await there.waitForEnd(run.run_id)).toEqual({ status: 'success', output: '{"ok":true}' });
    expect(await there.waitForEnd('00000000-0000-4000-8000-000000000001')).toBeNull();
  });

  // Under load, the request that created a run can go on only after the run ended: another replica claimed it from
  // the queue and finished it, and its NOTIFY was handled first. The hub's periodic re-check (10 s) is not the answer.
  const soon = (end: Promise<RunEnd | null>) =>
    Promise.race([end, new Promise<'still waiting'>((resolve) => setTimeout(() => resolve('still waiting'), 2_000).unref())]);

  /** Finishes the run and resolves once `on`'s hub handled the NOTIFY of its end. */
  async function finishAnnounced(on: AgentServerDatabase, runId: string, events: StoredEvent[] = []): Promise<void> {
    let announced!: () => void;
    const seen = new Promise<void>((resolve) => (announced = resolve));
    // Registered after the hub's own listener, so called after it for the same NOTIFY.
    const unlisten = await on.notifications.listen(RUN_CHANNELS.events, { onNotify: (payload) => payload === donePayload(runId) && announced() });
    try {
      await finish(runId, 'here', events);
      await seen;
    } finally {
      await unlisten();
    }
  }

  it("answers a fresh waiter at once when the run's end was announced before it started waiting", async () => {
    const run = await startRun('here');
    await finishAnnounced(other, run.run_id);
    expect(await soon(there.waitForEnd(run.run_id, { fresh: true }))).toEqual({ status: 'success', output: '{"ok":true}' });
  });

  it('answers a fresh waiter at once when the run ended on this replica before it started waiting', async () => {
    const run = await startRun('here');
    const log = here.openLog(run.run_id, 0);
    // The NOTIFY comes while the run still executes here, then its log closes: nothing is left to signal the end.
    await finishAnnounced(db, run.run_id, await log.drain());
    here.closeLog(log, { status: 'success', output: '{"ok":true}' });
    expect(await soon(here.waitForEnd(run.run_id, { fresh: true }))).toEqual({ status: 'success', output: '{"ok":true}' });
  });
});
