import { openAgentServerDatabase, type AgentServerDatabase } from '@platform/agent-server-data-access';
import { createScratchPostgresDatabase, type ScratchDatabase } from '@platform/prisma';
import { createRunQueueRepository } from './run-queue.repository';
import { addRun, createThreadRow, testPostgresUrl } from '@platform/agent-server-run-records/testing';

const THREADS = 25;
const RUNS_PER_THREAD = 4;
const CLAIMERS = 4;

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
});
