import { randomUUID } from 'node:crypto';
import type { RunCursor__Output, RunsClient, StreamRunsRequest } from '@platform/contracts';
import { readStream } from '@platform/grpc';
import { createTestDatabase, describeWithService, type TestDatabase } from '@platform/testing';
import { InternalError } from '@platform/errors';
import { openPostgresCopySql, openTracingDatabase, prismaUnsortedSql, type PostgresCopySql, type TracingDatabase } from '@platform/tracing-data-access';
import { compileFilter } from '@platform/tracing-filter';
import { buildRunPageCopySql, RunPageRepository, RUN_PAGE_FILTER_FIRST_PARAM, selectedRunFields } from '@platform/tracing-runs';
import { compareCursors, DAY_US, insertRuns, insertProject, startRunsServer, T0_US } from './stream-runs.testing';

const TOTAL = 100_000;
const PER_TIMESTAMP = 20; // many equal start times, so resuming inside a tie is exercised
const STEP_US = 1_000;

describeWithService('DATABASE_URL', 'StreamRuns on Postgres')('tracing.v1.Runs/StreamRuns on Postgres', () => {
  let testDb: TestDatabase;
  let db: TracingDatabase;
  let server: Awaited<ReturnType<typeof startRunsServer>>;
  let client: RunsClient;
  // The service's own wiring on Postgres: NDJSON pages by binary COPY on a pool of their own.
  let copy: PostgresCopySql;
  let copyServer: Awaited<ReturnType<typeof startRunsServer>>;
  const tenantId = randomUUID();
  const sessionId = randomUUID();
  const request: StreamRunsRequest = {
    tenant_id: tenantId,
    session_id: sessionId,
    start_time: T0_US.toString(),
    end_time: (T0_US + DAY_US).toString(),
    fields: ['name'],
    batch_size: 5_000,
  };

  beforeAll(async () => {
    testDb = await createTestDatabase();
    db = await openTracingDatabase({ url: testDb.url, dataDir: testDb.dataDir });
    await db.migrate();
    await insertProject(db.prisma, tenantId, sessionId);
    await insertRuns(db.prisma, { tenantId, sessionId, count: TOTAL, perTimestamp: PER_TIMESTAMP, stepUs: STEP_US });
    // Noise around the stream: another project, another tenant, rows just outside the window.
    const otherSession = randomUUID();
    await insertProject(db.prisma, tenantId, otherSession);
    await insertRuns(db.prisma, { tenantId, sessionId: otherSession, count: 1_000 });
    await insertRuns(db.prisma, { tenantId: randomUUID(), sessionId, count: 1_000 });
    await insertRuns(db.prisma, { tenantId, sessionId, count: 10, firstUs: T0_US - 10n, stepUs: 1 });
    await insertRuns(db.prisma, { tenantId, sessionId, count: 10, firstUs: T0_US + DAY_US, stepUs: 1 });
    await db.prisma.$executeRawUnsafe('ANALYZE runs');
    server = await startRunsServer(db.prisma);
    client = server.client;
    copy = openPostgresCopySql(testDb.url!, { poolSize: 2 });
    copyServer = await startRunsServer(db.prisma, { copy });
  });

  afterAll(async () => {
    await copyServer?.close();
    await copy?.close();
    await server?.close();
    await db?.close();
    await testDb?.drop();
  });

  /** Reads batches until `stopAfter` of them arrived (then aborts the call) or the stream ends. */
  async function readBatches(req: StreamRunsRequest, stopAfter = Infinity, onBatch?: (n: number) => Promise<void>) {
    const ids: string[] = [];
    const cursors: RunCursor__Output[] = [];
    const controller = new AbortController();
    try {
      for await (const batch of readStream(client, 'StreamRuns', req, { signal: controller.signal, deadlineMs: 60_000 })) {
        const last = batch.runs[batch.runs.length - 1];
        expect(batch.cursor).toEqual({ start_time: last.start_time, id: last.id });
        ids.push(...batch.runs.map((r) => r.id));
        cursors.push(...batch.runs.map((r) => ({ start_time: r.start_time, id: r.id })));
        await onBatch?.(cursors.length);
        if (cursors.length >= stopAfter) controller.abort(new Error('stop mid-stream'));
      }
    } catch (err) {
      if (!controller.signal.aborted) throw err;
    }
    return { ids, cursors };
  }

  function expectStrictlyOrdered(cursors: RunCursor__Output[]): void {
    for (let i = 1; i < cursors.length; i++) {
      if (compareCursors(cursors[i - 1], cursors[i]) >= 0) throw new Error(`out of order at ${i}: ${JSON.stringify(cursors.slice(i - 1, i + 1))}`);
    }
  }

  const chainFilter = compileFilter('and(eq(run_type, "chain"), gt(total_tokens, 5))', { alias: 'r', firstParam: RUN_PAGE_FILTER_FIRST_PARAM });
  it.each([
    ['no filter', undefined, 'messages'],
    ['a filter', chainFilter, 'messages'],
    ['a filter, as NDJSON', chainFilter, 'ndjson'],
  ] as const)('walks an index range on (tenant_id, session_id, start_time, id) from the cursor, with %s', async (_, filter, encoding) => {
    const plan = await new RunPageRepository(prismaUnsortedSql(db.prisma)).explain({
      tenantId,
      sessionId,
      startUs: T0_US,
      endUs: T0_US + DAY_US,
      fields: selectedRunFields([]),
      filter,
      after: { startTimeUs: T0_US + 1_000_000n, id: randomUUID() },
      limit: 5_000,
      maxStoredBytes: 16 * 1024 * 1024,
      encoding,
    });
    expect(plan).toContain('Index Scan using runs_tenant_id_session_id_start_time_id_idx');
    expect(plan).toMatch(/Index Cond: .*ROW\(start_time, id\) >/);
    expect(plan).not.toMatch(/Sort|Seq Scan/);
  });

  it('walks the same index range for the NDJSON page COPY reads, its values written in as literals', async () => {
    const page = {
      tenantId,
      sessionId,
      startUs: T0_US,
      endUs: T0_US + DAY_US,
      fields: selectedRunFields([]),
      filter: chainFilter,
      after: { startTimeUs: T0_US + 1_000_000n, id: randomUUID() },
      limit: 5_000,
      maxStoredBytes: 16 * 1024 * 1024,
      encoding: 'ndjson' as const,
    };
    const rows = await prismaUnsortedSql(db.prisma).query<{ 'QUERY PLAN': string }>(`EXPLAIN ${buildRunPageCopySql(page)}`);
    const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
    expect(plan).toContain('Index Scan using runs_tenant_id_session_id_start_time_id_idx');
    expect(plan).toMatch(/Index Cond: .*ROW\(start_time, id\) >/);
    expect(plan).not.toMatch(/Sort|Seq Scan/);
  });

  it(`streams ${TOTAL} runs exactly once across an abort mid-stream and a resume from the last cursor`, async () => {
    const first = await readBatches(request, 35_000);
    expect(first.ids.length).toBeGreaterThanOrEqual(35_000);
    expect(first.ids.length).toBeLessThan(TOTAL);

    const cursor = first.cursors[first.cursors.length - 1];
    const second = await readBatches({ ...request, cursor });
    const ids = [...first.ids, ...second.ids];
    expect(ids).toHaveLength(TOTAL);
    expect(new Set(ids).size).toBe(TOTAL);
    expectStrictlyOrdered([...first.cursors, ...second.cursors]);

    const stored = await db.prisma.$queryRawUnsafe<{ id: string }[]>(
      `SELECT id::text AS id FROM runs WHERE tenant_id = $1::uuid AND session_id = $2::uuid AND start_time >= $3::timestamptz AND start_time < $4::timestamptz`,
      tenantId,
      sessionId,
      '2024-05-01T00:00:00Z',
      '2024-05-02T00:00:00Z',
    );
    expect(new Set(ids)).toEqual(new Set(stored.map((r) => r.id)));
  });

  it(`streams the ${TOTAL} runs as NDJSON batches in the same order, each line the run's JSON`, async () => {
    const ids: string[] = [];
    let batches = 0;
    for await (const batch of readStream(client, 'StreamRuns', { ...request, encoding: 'RUN_ENCODING_NDJSON' }, { deadlineMs: 60_000 })) {
      batches++;
      expect(batch.runs).toEqual([]);
      const lines = batch.ndjson!.lines.toString('utf8').split('\n');
      expect(lines.pop()).toBe('');
      expect(lines).toHaveLength(batch.ndjson!.count);
      const runs = lines.map((line) => JSON.parse(line) as { id: string; start_time: string; name: string });
      expect(Object.keys(runs[0])).toEqual(['id', 'name', 'start_time']);
      expect(batch.cursor).toEqual({ start_time: runs[runs.length - 1].start_time, id: runs[runs.length - 1].id });
      ids.push(...runs.map((r) => r.id));
    }
    expect(batches).toBe(TOTAL / request.batch_size!);
    const stored = await db.prisma.$queryRawUnsafe<{ id: string }[]>(
      `SELECT id::text AS id FROM runs WHERE tenant_id = $1::uuid AND session_id = $2::uuid AND start_time >= $3::timestamptz AND start_time < $4::timestamptz
       ORDER BY start_time, id`,
      tenantId,
      sessionId,
      '2024-05-01T00:00:00Z',
      '2024-05-02T00:00:00Z',
    );
    expect(ids).toEqual(stored.map((r) => r.id));
  });

  it('sees runs ingested ahead of the stream once, and never repeats a run, while ingestion goes on', async () => {
    const tailUs = T0_US + BigInt((TOTAL / PER_TIMESTAMP - 100) * STEP_US); // ties with existing runs near the end
    let ahead = 0;
    const before = await readBatches({ ...request, batch_size: 1_000 }, Infinity, async (seen) => {
      // While the client holds the stream after its first batches, ingestion adds rows far ahead of the
      // server's position (the last 100 start times), behind the client's cursor and beyond the window.
      if (seen === 1_000 || seen === 10_000) {
        await insertRuns(db.prisma, { tenantId, sessionId, count: 500, firstUs: tailUs, perTimestamp: 5, stepUs: STEP_US });
        await insertRuns(db.prisma, { tenantId, sessionId, count: 200, firstUs: T0_US, stepUs: 1 });
        await insertRuns(db.prisma, { tenantId, sessionId, count: 200, firstUs: T0_US + DAY_US, stepUs: 1 });
        ahead += 500;
      }
    });
    expect(ahead).toBe(1_000);
    expect(before.ids).toHaveLength(TOTAL + ahead);
    expect(new Set(before.ids).size).toBe(before.ids.length);
    expectStrictlyOrdered(before.cursors);
  });

  describe('NDJSON pages by binary COPY (the service on Postgres)', () => {
    // 10k runs: the first 500 start times of the window.
    const ndjson: StreamRunsRequest = { ...request, end_time: (T0_US + 500n * BigInt(STEP_US)).toString(), fields: [], encoding: 'RUN_ENCODING_NDJSON' };
    async function batchesOf(c: RunsClient, req: StreamRunsRequest) {
      const batches = [];
      for await (const batch of readStream(c, 'StreamRuns', req, { deadlineMs: 60_000 })) {
        batches.push({ ...batch.ndjson!, lines: Buffer.from(batch.ndjson!.lines).toString('hex'), cursor: batch.cursor });
      }
      return batches;
    }

    it.each([
      ['every field', {}],
      ['a filter with quotes and backslashes, resumed from a cursor', { filter: `or(eq(name, "run-7"), like(name, "run-1%"), eq(name, ${JSON.stringify(`it's \\ "x"`)}))`, cursor: { start_time: (T0_US + 3n * BigInt(STEP_US)).toString(), id: randomUUID() }, batch_size: 333 }],
    ])('sends the same batches as the query through Prisma, byte for byte: %s', async (_, extra) => {
      const req = { ...ndjson, ...extra };
      const [expected, actual] = await Promise.all([batchesOf(client, req), batchesOf(copyServer.client, req)]);
      expect(actual.length).toBeGreaterThan(1);
      expect(actual.reduce((n, b) => n + Number(b.count), 0)).toBeGreaterThan(1000);
      expect(actual).toEqual(expected);
    });

    it('fails a stream whose page query fails with the same opaque INTERNAL as the query through Prisma', async () => {
      // A LIKE pattern ending in its escape character passes the filter's checks and fails in Postgres.
      const req = { ...ndjson, filter: 'like(name, "run\\\\")' };
      await expect(batchesOf(client, req)).rejects.toThrow(new InternalError('Internal error'));
      await expect(batchesOf(copyServer.client, req)).rejects.toThrow(new InternalError('Internal error'));
    });
  });
});
