import { ConflictError, NotFoundError } from '@platform/errors';
import type { AgentServerDatabase } from '@platform/agent-server-data-access';
import { createRunEventRepository } from '@platform/agent-server-run-streams';
import { createRunQueueRepository, OWN_RUNS_HEAD_START_MS, type RunQueueRepository } from './run-queue.repository';
import { createRunRepository } from '@platform/agent-server-run-records';
import { addRun, createThreadRow, openRunsTestDatabase } from '@platform/agent-server-run-records/testing';

describe('run queue (Postgres with DATABASE_URL, else PGlite)', () => {
  let db: AgentServerDatabase;
  let close: () => Promise<void>;
  let queue: RunQueueRepository;

  beforeAll(async () => {
    ({ db, close } = await openRunsTestDatabase());
    queue = createRunQueueRepository(db.sql);
  });
  afterAll(() => close());

  const status = async (runId: string) => (await db.sql.query<{ status: string }>(`SELECT status FROM runs WHERE run_id = $1::uuid`, [runId]))[0]?.status;
  const threadStatus = async (threadId: string) =>
    (await db.sql.query<{ status: string }>(`SELECT status FROM threads WHERE thread_id = $1::uuid`, [threadId]))[0]?.status;
  const expireLease = (runId: string) => db.sql.query(`UPDATE runs SET lease_expires_at = now() - interval '1 second' WHERE run_id = $1::uuid`, [runId]);
  // Claims everything claimable so the next test starts from an empty queue.
  const drain = async () => {
    await db.sql.query(`UPDATE runs SET status = 'success', lease_owner = NULL WHERE status = 'running'`);
    for (;;) {
      const runs = await queue.claim('drain', 100, 60_000);
      if (runs.length === 0) return;
      for (const run of runs) await queue.finish({ runId: run.run_id, owner: 'drain', status: 'success', output: null, events: [], threadStatus: 'idle', deleteThread: false });
    }
  };
  afterEach(() => drain());

  it('counts the runs waiting and due, and the runs being executed (the depth an autoscaler reads)', async () => {
    expect(await queue.depth()).toEqual({ queued: 0, running: 0 });
    const busy = await createThreadRow(db);
    await addRun(db, busy, { startAs: { owner: 'me', leaseMs: 10_000 } });
    await addRun(db, busy);
    await addRun(db, await createThreadRow(db));
    // Delayed (`after_seconds`): not due yet, so not demand yet.
    await addRun(db, await createThreadRow(db), { afterMs: 60_000 });
    expect(await queue.depth()).toEqual({ queued: 2, running: 1 });
    const claimed = await queue.claim('other', 10, 10_000);
    expect(claimed).toHaveLength(1);
    expect(await queue.depth()).toEqual({ queued: 1, running: 2 });
  });

  it('starts a run at once on a free thread, else queues it behind the thread in arrival order', async () => {
    const threadId = await createThreadRow(db);
    const first = await addRun(db, threadId, { startAs: { owner: 'me', leaseMs: 10_000 } });
    const second = await addRun(db, threadId, { startAs: { owner: 'me', leaseMs: 10_000 } });
    const third = await addRun(db, threadId);
    expect(first).toMatchObject({ started: true, behindThread: false, run: { status: 'running', attempt: 1, lease_owner: 'me' } });
    expect(second).toMatchObject({ started: false, behindThread: true, run: { status: 'pending', attempt: 0 } });
    expect(third.run.created_at.getTime()).toBeGreaterThanOrEqual(second.run.created_at.getTime());
    expect(await threadStatus(threadId)).toBe('busy');
    expect(await queue.claim('other', 10, 10_000)).toEqual([]);

    const ended = await queue.finish({
      runId: first.run.run_id,
      owner: 'me',
      status: 'success',
      output: '{"done":true}',
      events: [{ seq: 0, event: 'metadata', data: '{}' }],
      threadStatus: 'idle',
      threadState: { values: '{"n":1}', interrupts: '{}' },
      deleteThread: false,
    });
    expect(ended).toEqual({ ended: true, waiting: 2, exists: true, claimed: [] });
    expect(await threadStatus(threadId)).toBe('busy');
    expect(await createRunRepository(db.sql).end(first.run.run_id)).toEqual({ status: 'success', output: '{"done":true}' });

    const claimed = await queue.claim('other', 10, 10_000);
    expect(claimed.map((r) => r.run_id)).toEqual([second.run.run_id]);
    expect(claimed[0]).toMatchObject({ status: 'running', attempt: 1, lease_owner: 'other' });
  });

  it('claims the next runs in the statement that ends one, never one of the same thread', async () => {
    const [busy, other] = [await createThreadRow(db), await createThreadRow(db)];
    const { run } = await addRun(db, busy, { startAs: { owner: 'me', leaseMs: 10_000 } });
    const sameThread = (await addRun(db, busy)).run;
    const otherThread = (await addRun(db, other)).run;
    const result = await queue.finish(
      { runId: run.run_id, owner: 'me', status: 'success', output: '{}', events: [], threadStatus: 'idle', deleteThread: false },
      { limit: 5, leaseMs: 10_000 },
    );
    expect(result).toMatchObject({ ended: true, waiting: 1 });
    expect(result.claimed.map((r) => r.run_id)).toEqual([otherThread.run_id]);
    expect(result.claimed[0]).toMatchObject({ status: 'running', attempt: 1, lease_owner: 'me', kwargs: otherThread.kwargs });
    expect((await queue.claim('me', 5, 10_000)).map((r) => r.run_id)).toEqual([sameThread.run_id]);
  });

  it('refuses a finish from a replica that no longer holds the lease', async () => {
    const threadId = await createThreadRow(db);
    const { run } = await addRun(db, threadId, { startAs: { owner: 'a', leaseMs: 10_000 } });
    const result = await queue.finish({ runId: run.run_id, owner: 'b', status: 'success', output: null, events: [], threadStatus: 'idle', deleteThread: false });
    expect(result).toMatchObject({ ended: false, exists: true });
    expect(await status(run.run_id)).toBe('running');
  });

  it('never has two running runs on one thread, whatever writes the rows', async () => {
    const threadId = await createThreadRow(db);
    await addRun(db, threadId, { startAs: { owner: 'a', leaseMs: 10_000 } });
    const { run } = await addRun(db, threadId);
    await expect(db.sql.query(`UPDATE runs SET status = 'running' WHERE run_id = $1::uuid`, [run.run_id])).rejects.toThrow(/runs_one_running_per_thread/);
  });

  it('does not claim a delayed run before it is due', async () => {
    const threadId = await createThreadRow(db);
    const { run } = await addRun(db, threadId, { afterMs: 60_000, startAs: { owner: 'a', leaseMs: 10_000 } });
    expect(run.status).toBe('pending');
    expect(await queue.claim('a', 10, 10_000)).toEqual([]);
    await db.sql.query(`UPDATE runs SET available_at = now() - interval '1 second' WHERE run_id = $1::uuid`, [run.run_id]);
    expect((await queue.claim('a', 10, 10_000)).map((r) => r.run_id)).toEqual([run.run_id]);
  });

  it('claims across threads in creation order, one per thread, up to the limit', async () => {
    const threads = [await createThreadRow(db), await createThreadRow(db), await createThreadRow(db)];
    const runs = [];
    for (const threadId of [...threads, ...threads]) runs.push((await addRun(db, threadId)).run);
    const claimed = await queue.claim('a', 2, 10_000);
    expect(claimed.map((r) => r.run_id)).toEqual([runs[0].run_id, runs[1].run_id]);
    const next = await queue.claim('a', 10, 10_000);
    expect(next.map((r) => r.run_id)).toEqual([runs[2].run_id]);
  });

  it("takes the claiming replica's own runs first, but not before runs queued longer than the head start", async () => {
    const others = (await addRun(db, await createThreadRow(db))).run;
    const own = (await addRun(db, await createThreadRow(db))).run;
    const claimed = await queue.claim('a', 1, 10_000, [own.run_id]);
    expect(claimed.map((r) => r.run_id)).toEqual([own.run_id]);
    expect((await queue.claim('a', 1, 10_000)).map((r) => r.run_id)).toEqual([others.run_id]);

    // Another replica's run waiting longer than OWN_RUNS_HEAD_START_MS goes first; so does ending a run with a claim.
    const old = (await addRun(db, await createThreadRow(db))).run;
    await db.sql.query(`UPDATE runs SET created_at = created_at - $2::float8 * interval '1 millisecond' WHERE run_id = $1::uuid`, [
      old.run_id,
      OWN_RUNS_HEAD_START_MS + 1_000,
    ]);
    const mine = (await addRun(db, await createThreadRow(db))).run;
    const { run } = await addRun(db, await createThreadRow(db), { startAs: { owner: 'a', leaseMs: 10_000 } });
    const ended = await queue.finish(
      { runId: run.run_id, owner: 'a', status: 'success', output: '{}', events: [], threadStatus: 'idle', deleteThread: false },
      { limit: 1, leaseMs: 10_000, prefer: [mine.run_id] },
    );
    expect(ended.claimed.map((r) => r.run_id)).toEqual([old.run_id]);
    expect((await queue.claim('a', 1, 10_000, [mine.run_id])).map((r) => r.run_id)).toEqual([mine.run_id]);
  });

  it('counts own runs created up to the head start after another replica\'s run as older than it, and no later ones', async () => {
    const theirs = (await addRun(db, await createThreadRow(db))).run;
    const soon = (await addRun(db, await createThreadRow(db))).run;
    const late = (await addRun(db, await createThreadRow(db))).run;
    const base = Date.now() - 10_000;
    const createdAt = (run: { run_id: string }, at: number) =>
      db.sql.query(`UPDATE runs SET created_at = $2::timestamptz WHERE run_id = $1::uuid`, [run.run_id, new Date(at).toISOString()]);
    await createdAt(theirs, base);
    await createdAt(soon, base + 0.9 * OWN_RUNS_HEAD_START_MS);
    await createdAt(late, base + 1.1 * OWN_RUNS_HEAD_START_MS);
    const next = async (prefer: string[]) => (await queue.claim('a', 1, 10_000, prefer)).map((r) => r.run_id);
    expect(await next([soon.run_id, late.run_id])).toEqual([soon.run_id]);
    expect(await next([late.run_id])).toEqual([theirs.run_id]);
    expect(await next([late.run_id])).toEqual([late.run_id]);
  });

  it('keeps each thread in order: a run waits behind an earlier pending run of its thread, due or not, and behind a running one', async () => {
    const [delayedHead, busy, free] = [await createThreadRow(db), await createThreadRow(db), await createThreadRow(db)];
    const notDue = (await addRun(db, delayedHead, { afterMs: 60_000 })).run;
    const behindNotDue = (await addRun(db, delayedHead)).run;
    await addRun(db, busy, { startAs: { owner: 'x', leaseMs: 10_000 } });
    const behindRunning = (await addRun(db, busy)).run;
    const head = (await addRun(db, free)).run;
    const second = (await addRun(db, free)).run;
    const prefer = [behindNotDue, behindRunning, second].map((r) => r.run_id);
    expect((await queue.claim('a', 10, 10_000, prefer)).map((r) => r.run_id)).toEqual([head.run_id]);
    expect(await queue.claim('a', 10, 10_000, prefer)).toEqual([]);
    await queue.finish({ runId: head.run_id, owner: 'a', status: 'success', output: null, events: [], threadStatus: 'idle', deleteThread: false });
    expect((await queue.claim('a', 10, 10_000, prefer)).map((r) => r.run_id)).toEqual([second.run_id]);
    // Left waiting behind a run due in a minute, which the next tests must not see.
    await db.sql.query(`DELETE FROM runs WHERE run_id = ANY($1::uuid[])`, [[notDue.run_id, behindNotDue.run_id]]);
  });

  it('passes over runs not yet due at the head of the queue, own or not, to the due ones behind them', async () => {
    const later = (await addRun(db, await createThreadRow(db), { afterMs: 60_000 })).run;
    const ownLater = (await addRun(db, await createThreadRow(db), { afterMs: 60_000 })).run;
    const due = (await addRun(db, await createThreadRow(db))).run;
    expect((await queue.claim('a', 1, 10_000, [ownLater.run_id])).map((r) => r.run_id)).toEqual([due.run_id]);
    await db.sql.query(`DELETE FROM runs WHERE run_id = ANY($1::uuid[])`, [[later.run_id, ownLater.run_id]]);
  });

  it('extends leases with heartbeats and reports cancels waiting for the holder', async () => {
    const threadId = await createThreadRow(db);
    const { run } = await addRun(db, threadId, { startAs: { owner: 'hb', leaseMs: 1_000 } });
    const before = await db.sql.query<{ lease_expires_at: Date }>(`SELECT lease_expires_at FROM runs WHERE run_id = $1::uuid`, [run.run_id]);
    await createRunRepository(db.sql).cancel({ runIds: [run.run_id] }, 'interrupt');
    expect(await queue.heartbeat('hb', 60_000, [run.run_id])).toEqual([{ runId: run.run_id, cancelAction: 'interrupt' }]);
    const after = await db.sql.query<{ lease_expires_at: Date }>(`SELECT lease_expires_at FROM runs WHERE run_id = $1::uuid`, [run.run_id]);
    expect(after[0].lease_expires_at.getTime()).toBeGreaterThan(before[0].lease_expires_at.getTime() + 30_000);
    expect(await queue.heartbeat('nobody', 60_000, [run.run_id])).toEqual([]);
    expect(await queue.heartbeat('hb', 60_000, [])).toEqual([]);
  });

  it('hands a run back on shutdown; the next claim is a new attempt after its events', async () => {
    const threadId = await createThreadRow(db);
    const { run } = await addRun(db, threadId, { startAs: { owner: 'a', leaseMs: 10_000 } });
    await queue.release(run.run_id, 'a', [
      { seq: 0, event: 'metadata', data: '{"attempt":1}' },
      { seq: 1, event: 'values', data: '{}' },
    ]);
    expect(await status(run.run_id)).toBe('pending');
    const [again] = await queue.claim('b', 1, 10_000);
    expect(again).toMatchObject({ run_id: run.run_id, attempt: 2, lease_owner: 'b' });
    expect(await createRunEventRepository(db.sql).nextSeq(run.run_id)).toBe(2);
  });

  it('sweeps lapsed leases: requeue, fail after the attempt limit, or apply the waiting cancel', async () => {
    const [a, b, c] = [await createThreadRow(db), await createThreadRow(db), await createThreadRow(db)];
    const requeued = (await addRun(db, a, { startAs: { owner: 'dead', leaseMs: 10_000 } })).run;
    const exhausted = (await addRun(db, b, { startAs: { owner: 'dead', leaseMs: 10_000 } })).run;
    const cancelled = (await addRun(db, c, { startAs: { owner: 'dead', leaseMs: 10_000 } })).run;
    await db.sql.query(`UPDATE runs SET attempt = 3 WHERE run_id = $1::uuid`, [exhausted.run_id]);
    await db.sql.query(`UPDATE runs SET cancel_action = 'interrupt' WHERE run_id = $1::uuid`, [cancelled.run_id]);
    for (const run of [requeued, exhausted, cancelled]) await expireLease(run.run_id);

    const swept = await queue.sweepExpired(3);
    const outcome = Object.fromEntries(swept.map((s) => [s.run.run_id, s.outcome]));
    expect(outcome).toEqual({ [requeued.run_id]: 'requeued', [exhausted.run_id]: 'failed', [cancelled.run_id]: 'interrupted' });
    expect(await status(requeued.run_id)).toBe('pending');
    expect(await status(exhausted.run_id)).toBe('error');
    expect(JSON.parse((await createRunRepository(db.sql).end(exhausted.run_id))!.output!)).toEqual({
      __error__: { error: 'RunAttemptsExhausted', message: expect.stringContaining('3 times') },
    });
    expect(await status(cancelled.run_id)).toBe('interrupted');
    expect(await queue.sweepExpired(3)).toEqual([]);
  });

  it('applies multitask strategies when a run is created', async () => {
    const threadId = await createThreadRow(db);
    const running = (await addRun(db, threadId, { startAs: { owner: 'a', leaseMs: 10_000 } })).run;
    const pending = (await addRun(db, threadId)).run;
    await expect(addRun(db, threadId, { multitaskStrategy: 'reject' })).rejects.toBeInstanceOf(ConflictError);

    const interrupting = await addRun(db, threadId, { multitaskStrategy: 'interrupt' });
    expect(interrupting).toMatchObject({ started: false, behindThread: true });
    expect(await status(pending.run_id)).toBe('interrupted');
    const flagged = await db.sql.query<{ cancel_action: string }>(`SELECT cancel_action FROM runs WHERE run_id = $1::uuid`, [running.run_id]);
    expect(flagged[0].cancel_action).toBe('interrupt');

    await addRun(db, threadId, { multitaskStrategy: 'rollback' });
    expect(await status(interrupting.run.run_id)).toBeUndefined();
    await expect(addRun(db, '00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('discards the checkpoint rows of a deleted thread, and only of one that is gone', async () => {
    const writeCheckpointRows = async (threadId: string) => {
      await db.sql.query(
        `INSERT INTO checkpoints (thread_id, checkpoint_id, type, checkpoint) VALUES ($1, 'c1', 'json', '\\x7b7d'), ($1, 'c2', 'json', '\\x7b7d')`,
        [threadId],
      );
      await db.sql.query(`INSERT INTO checkpoint_blobs (thread_id, channel, version, type) VALUES ($1, 'messages', '1', 'empty')`, [threadId]);
      await db.sql.query(
        `INSERT INTO checkpoint_writes (thread_id, checkpoint_id, task_id, idx, channel, type, value) VALUES ($1, 'c2', 't', 0, 'messages', 'json', '\\x7b7d')`,
        [threadId],
      );
    };
    const rowCounts = async (threadId: string) =>
      (
        await db.sql.query<{ checkpoints: number; blobs: number; writes: number }>(
          `SELECT (SELECT count(*)::int FROM checkpoints WHERE thread_id = $1) AS checkpoints,
                  (SELECT count(*)::int FROM checkpoint_blobs WHERE thread_id = $1) AS blobs,
                  (SELECT count(*)::int FROM checkpoint_writes WHERE thread_id = $1) AS writes`,
          [threadId],
        )
      )[0];
    const kept = await createThreadRow(db);
    const deleted = await createThreadRow(db);
    await writeCheckpointRows(kept);
    await writeCheckpointRows(deleted);
    await db.sql.query(`DELETE FROM threads WHERE thread_id = $1::uuid`, [deleted]);

    expect(await queue.discardOrphanCheckpoints(kept)).toBe(0);
    expect(await rowCounts(kept)).toEqual({ checkpoints: 2, blobs: 1, writes: 1 });
    expect(await queue.discardOrphanCheckpoints(deleted)).toBe(2);
    expect(await rowCounts(deleted)).toEqual({ checkpoints: 0, blobs: 0, writes: 0 });
    expect(await rowCounts(kept)).toEqual({ checkpoints: 2, blobs: 1, writes: 1 });
  });

  it('creates a stateless run with its thread in one statement', async () => {
    const created = await addRun(db, '6f1ad1a3-3f7c-4c3b-9a62-0d2a3c7c9e11', { thread: 'new', temporaryThread: true, startAs: { owner: 'a', leaseMs: 5_000 } });
    expect(created).toMatchObject({ started: true, run: { temporary_thread: true } });
    await queue.finish({ runId: created.run.run_id, owner: 'a', status: 'success', output: '{}', events: [], threadStatus: 'idle', deleteThread: true });
    expect(await threadStatus(created.run.thread_id)).toBeUndefined();
  });
});
