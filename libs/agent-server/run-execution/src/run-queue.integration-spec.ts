import { openAgentServerDatabase, type AgentServerDatabase } from '@platform/agent-server-data-access';
import { createScratchPostgresDatabase, type ScratchDatabase, type SqlRunner, type SqlSession } from '@platform/prisma';
import { createRunQueueRepository } from './run-queue.repository';
import type { RunRecord } from '@platform/agent-server-run-records';
import { addRun, createThreadRow, testKwargs, testPostgresUrl } from '@platform/agent-server-run-records/testing';

const THREADS = 25;
const RUNS_PER_THREAD = 4;
const CLAIMERS = 4;

/** What EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) says of a statement's execution. */
interface ExecutedPlan {
  'Shared Hit Blocks': number;
  'Shared Read Blocks': number;
}

/** A session that runs each statement under EXPLAIN (ANALYZE, BUFFERS), for real, and keeps its plan instead of its rows. */
function explaining(sql: SqlSession, plans: ExecutedPlan[]): SqlSession {
  return {
    exec: (text) => sql.exec(text),
    transaction: (fn) => sql.transaction(fn),
    async query<Row>(text: string, params?: unknown[]): Promise<Row[]> {
      const [row] = await sql.query<{ 'QUERY PLAN': { Plan: ExecutedPlan }[] }>(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${text}`, params);
      plans.push(row['QUERY PLAN'][0].Plan);
      return [];
    },
  };
}

/** A transaction as a session, its `transaction` joining it: a claim made through it keeps its locks until the commit. */
const inTransaction = (tx: SqlRunner): SqlSession => ({ exec: (text) => tx.exec(text), query: (text, params) => tx.query(text, params), transaction: (fn) => fn(tx) });

const adminUrl = testPostgresUrl();
// stderr, not console.warn: jest drops console output of a file whose tests are all skipped.
if (!adminUrl) process.stderr.write('SKIPPED: run queue with concurrent claimers (set DATABASE_URL to run it on Postgres)\n');

(adminUrl ? describe : describe.skip)('run queue with concurrent claimers (Postgres)', () => {
  let scratch: ScratchDatabase;
  const replicas: AgentServerDatabase[] = [];

  beforeAll(async () => {
    scratch = await createScratchPostgresDatabase(adminUrl!);
    for (let i = 0; i < CLAIMERS; i++) replicas.push(await openAgentServerDatabase({ url: scratch.url, dataDir: 'unused' }));
    await replicas[0].migrate();
  });
  afterAll(async () => {
    await Promise.all(replicas.map((db) => db.close()));
    await scratch?.drop();
  });

  it('hands every run to exactly one claimer, one run per thread at a time, in arrival order', async () => {
    const db = replicas[0];
    const order = new Map<string, string[]>();
    for (let t = 0; t < THREADS; t++) {
      const threadId = await createThreadRow(db);
      order.set(threadId, []);
      for (let r = 0; r < RUNS_PER_THREAD; r++) order.get(threadId)!.push((await addRun(db, threadId)).run.run_id);
    }

    const claimedBy = new Map<string, string[]>();
    const running = new Map<string, string>();
    const executed = new Map<string, string[]>();
    const violations: string[] = [];
    const total = THREADS * RUNS_PER_THREAD;
    let done = 0;

    // Each replica claims a few at a time and "executes" each run for a few ms, as many replicas would.
    await Promise.all(
      replicas.map(async (replica, i) => {
        const owner = `replica-${i}`;
        const queue = createRunQueueRepository(replica.sql);
        while (done < total) {
          const runs = await queue.claim(owner, 3, 30_000);
          if (runs.length === 0) {
            await new Promise((resolve) => setTimeout(resolve, 2));
            continue;
          }
          await Promise.all(
            runs.map(async (run) => {
              claimedBy.set(run.run_id, [...(claimedBy.get(run.run_id) ?? []), owner]);
              if (running.has(run.thread_id)) violations.push(`thread ${run.thread_id} ran two runs at once`);
              running.set(run.thread_id, run.run_id);
              await new Promise((resolve) => setTimeout(resolve, 1 + Math.random() * 4));
              executed.set(run.thread_id, [...(executed.get(run.thread_id) ?? []), run.run_id]);
              running.delete(run.thread_id);
              const ended = await queue.finish({ runId: run.run_id, owner, status: 'success', output: null, events: [], threadStatus: 'idle', deleteThread: false });
              if (!ended.ended) violations.push(`run ${run.run_id} was not held by its claimer`);
              done++;
            }),
          );
        }
      }),
    );

    expect(violations).toEqual([]);
    expect([...claimedBy.values()].every((owners) => owners.length === 1)).toBe(true);
    expect(claimedBy.size).toBe(total);
    for (const [threadId, runIds] of order) expect(executed.get(threadId)).toEqual(runIds);
    // The work was actually shared.
    expect(new Set([...claimedBy.values()].flat()).size).toBeGreaterThan(1);
    const [{ n }] = await db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM runs WHERE status <> 'success'`);
    expect(n).toBe(0);
  });

  it('locks only the runs it claims, and another claimer passes over those to the next', async () => {
    const [db, other] = replicas;
    const runs: RunRecord[] = [];
    for (let i = 0; i < 4; i++) runs.push((await addRun(db, await createThreadRow(db))).run);
    const ids = runs.map((r) => r.run_id);
    await db.sql.transaction(async (tx) => {
      expect((await createRunQueueRepository(inTransaction(tx)).claim('a', 1, 30_000)).map((r) => r.run_id)).toEqual([ids[0]]);
      // Seen from another connection, every other run and thread is free to lock.
      const freeRuns = await other.sql.query<{ id: string }>(
        `SELECT run_id::text AS id FROM runs WHERE run_id = ANY($1::uuid[]) ORDER BY created_at FOR UPDATE SKIP LOCKED`,
        [ids],
      );
      expect(freeRuns.map((r) => r.id)).toEqual(ids.slice(1));
      const freeThreads = await other.sql.query<{ id: string }>(`SELECT thread_id::text AS id FROM threads WHERE thread_id = ANY($1::uuid[]) FOR UPDATE SKIP LOCKED`, [
        runs.map((r) => r.thread_id),
      ]);
      expect(freeThreads.map((r) => r.id).sort()).toEqual(runs.slice(1).map((r) => r.thread_id).sort());
      expect((await createRunQueueRepository(other.sql).claim('b', 1, 30_000)).map((r) => r.run_id)).toEqual([ids[1]]);
    });
    await db.sql.query(`DELETE FROM runs WHERE run_id = ANY($1::uuid[])`, [ids]);
  });

  it('reads about as much of the queue to claim a run from 2,000 waiting as from 100, alone or ending a run', async () => {
    const db = replicas[0];
    const plans: ExecutedPlan[] = [];
    const explained = createRunQueueRepository(explaining(db.sql, plans));
    const queueRuns = async (n: number) => {
      // A burst of stateless runs with a chat message each, each on a thread of its own, in arrival order.
      await db.sql.query(
        `WITH t AS (INSERT INTO threads (thread_id) SELECT gen_random_uuid() FROM generate_series(1, $1::int) RETURNING thread_id)
         INSERT INTO runs (run_id, thread_id, assistant_id, status, kwargs, created_at)
         SELECT gen_random_uuid(), thread_id, gen_random_uuid(), 'pending', $2::jsonb, clock_timestamp() FROM t`,
        [n, JSON.stringify(testKwargs({ messages: [{ role: 'user', content: 'What is on the agenda for the quarterly review? '.repeat(8) }] }))],
      );
      // What autovacuum would have done by then (this machine's Postgres runs without it).
      await db.sql.exec('ANALYZE runs; ANALYZE threads');
    };
    const buffers = (plan: ExecutedPlan) => plan['Shared Hit Blocks'] + plan['Shared Read Blocks'];
    const measure = async () => {
      // The replica's own runs are the last ten queued: looked up by id, not found by reading the queue.
      const own = await db.sql.query<{ id: string }>(`SELECT run_id::text AS id FROM runs WHERE status = 'pending' ORDER BY created_at DESC LIMIT 10`);
      const prefer = own.map((r) => r.id);
      const { run } = await addRun(db, await createThreadRow(db), { startAs: { owner: 'a', leaseMs: 30_000 } });
      plans.length = 0;
      await explained.claim('a', 2, 30_000, prefer);
      await explained.finish(
        { runId: run.run_id, owner: 'a', status: 'success', output: null, events: [], threadStatus: 'idle', deleteThread: false },
        { limit: 2, leaseMs: 30_000, prefer },
      );
      return { claim: buffers(plans[0]), finish: buffers(plans[1]) };
    };

    await queueRuns(100);
    const short = await measure();
    await queueRuns(1_900);
    const long = await measure();
    const [{ n }] = await db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM runs WHERE status = 'pending'`);
    expect(n).toBeGreaterThan(1_900);
    expect(long.claim).toBeLessThan(2 * short.claim);
    expect(long.finish).toBeLessThan(2 * short.finish);
    await db.sql.query(`DELETE FROM runs WHERE status <> 'success'`);
  });
});
