import { randomUUID } from 'node:crypto';
import { createScratchPostgresDatabase, openDatabase, type Database, type ScratchDatabase } from '@platform/prisma';
import { openTracingDatabase, prismaIngestSql, TracingProjectsRepository, type IngestSql, type TracingDatabase } from '@platform/tracing-data-access';
import { batchFromJson } from './ingest/ingest-batch';
import { traceOf } from './ingest/ingest-fixtures.testing';
import { IngestRuns } from './ingest/ingest-runs.usecase';
import { RunsRepository } from './runs.repository';

// On Postgres (DATABASE_URL) this is the production path: a pg pool, concurrent transactions, advisory locks; without
// it, PGlite. (Domain libs may not import @platform/testing, hence the scratch database from @platform/prisma.)
const adminUrl = process.env['DATABASE_URL'];
if (!adminUrl && process.env['REQUIRE_SERVICES'] === '1') throw new Error('DATABASE_URL must be set when REQUIRE_SERVICES=1');
let scratch: ScratchDatabase | undefined;
let db: TracingDatabase;
let pool: Database | undefined;
let sql: IngestSql;

beforeAll(async () => {
  scratch = adminUrl ? await createScratchPostgresDatabase(adminUrl) : undefined;
  db = await openTracingDatabase({ url: scratch?.url, dataDir: 'memory://' });
  await db.migrate();
  pool = scratch ? await openDatabase({ url: scratch.url, dataDir: '' }) : undefined;
  sql = pool ?? prismaIngestSql(db.prisma);
});
afterAll(async () => {
  await pool?.close();
  await db?.close();
  await scratch?.drop();
});

function shuffled<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let state = seed;
  const next = () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

describe('ingestion under concurrency (Postgres when DATABASE_URL is set)', () => {
  it('keeps every trace rolled up right when its creates and updates race in parallel batches', async () => {
    const tenant = randomUUID();
    const repository = new RunsRepository(sql, { maxRunsPerTransaction: 7 });
    const ingest = new IngestRuns(new TracingProjectsRepository(db.prisma), repository, { maxConcurrentWrites: 8 });
    const traces = Array.from({ length: 40 }, () =>
      traceOf(['root', null], ['chain', 'root'], ['llm1', 'chain'], ['llm2', 'chain'], ['llm3', 'root']),
    );
    type Op = { kind: 'post' | 'patch'; run: Record<string, unknown> };
    const ops: Op[] = [];
    for (const { runs } of traces) {
      for (const [name, run] of runs) {
        const llm = name.startsWith('llm');
        ops.push({ kind: 'post', run: { ...run, name, run_type: llm ? 'llm' : 'chain', session_name: 'race', inputs: { name } } });
        // Updates without trace info or run type: their stored state decides (the legacy path with its own locks).
        const bare = name === 'llm3' ? { id: run.id } : { ...run, run_type: llm ? 'llm' : 'chain' };
        ops.push({
          kind: 'patch',
          run: { ...bare, end_time: 1714564802000, outputs: llm ? { usage_metadata: { input_tokens: 2, output_tokens: 1 } } : { ok: true } },
        });
      }
    }
    const order = shuffled(ops, 7);
    const batches: Op[][] = [];
    for (let i = 0; i < order.length; i += 9) batches.push(order.slice(i, i + 9));
    await Promise.all(
      batches.map((batch) =>
        ingest.ingest(
          tenant,
          batchFromJson({ post: batch.filter((o) => o.kind === 'post').map((o) => o.run), patch: batch.filter((o) => o.kind === 'patch').map((o) => o.run) }),
        ),
      ),
    );

    for (const { runs } of traces) {
      const totals = async (name: string) => Number((await repository.findRun(tenant, runs.get(name)!.id))!.total_tokens);
      expect([await totals('root'), await totals('chain'), await totals('llm1'), await totals('llm3')]).toEqual([9, 6, 3, 3]);
    }
    expect(await db.prisma.run.count({ where: { tenantId: tenant, hasCreate: true, status: 'success' } })).toBe(200);
    expect(await db.prisma.tracingSession.count({ where: { tenantId: tenant, name: 'race' } })).toBe(1);
  });

  it('aggregates feedback that races with the creates of its runs', async () => {
    const tenant = randomUUID();
    const repository = new RunsRepository(sql);
    const ingest = new IngestRuns(new TracingProjectsRepository(db.prisma), repository, { maxConcurrentWrites: 8 });
    const roots = Array.from({ length: 30 }, () => traceOf(['root', null]).runs.get('root')!);
    const feedback = (run: (typeof roots)[number], score: number) => ({
      id: randomUUID(),
      run_id: run.id,
      trace_id: run.trace_id,
      key: 'quality',
      score,
      value: null,
      comment: null,
      extra: null,
    });
    await Promise.all(
      roots.flatMap((run) => [
        ingest.ingest(tenant, { operations: [], feedback: [feedback(run, 1)], attachments: [] }),
        ingest.ingest(tenant, batchFromJson({ post: [{ ...run, name: 'r' }] })),
        ingest.ingest(tenant, { operations: [], feedback: [feedback(run, 0)], attachments: [] }),
      ]),
    );
    for (const run of roots) {
      expect((await repository.findRun(tenant, run.id))?.feedback_stats).toMatchObject({ quality: { n: 2, avg: 0.5 } });
    }
  });

  it('creates one project when many batches name it at once', async () => {
    const tenant = randomUUID();
    const store = new TracingProjectsRepository(db.prisma);
    const ids = await Promise.all(Array.from({ length: 12 }, () => store.ensureNamed(tenant, ['together', `alone-${randomUUID()}`])));
    expect(new Set(ids.map((m) => m.get('together'))).size).toBe(1);
    expect(await db.prisma.tracingSession.count({ where: { tenantId: tenant } })).toBe(13);
  });
});
