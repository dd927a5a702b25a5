import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { RunBatch } from '@platform/contracts';
import { createScratchPostgresDatabase, type ScratchDatabase } from '@platform/prisma';
import { compileFilter } from '@platform/tracing-filter';
import { openTracingDatabase, pgUnsortedCopySql, prismaUnsortedSql, TracingProjectsRepository, type TracingDatabase } from '@platform/tracing-data-access';
import { insertProject, insertRuns as insertRealisticRuns, T0_US } from '@platform/tracing-data-access/testing';
import { PageBufferPool } from './page-buffer-pool';
import { RunPageRepository } from './run-page.repository';
import { buildRunPageCopySql, RUN_PAGE_FILTER_FIRST_PARAM, type RunPageRequest } from './run-page.sql';
import { releaseRunBatch, type RunPage } from './run-pages';
import { selectedRunFields } from './run-stream-columns';
import type { RunStreamQuery } from './run-stream.types';
import { quoteSqlString } from './sql-literals';
import { streamRunBatches, type StreamRunsDeps } from './stream-runs.usecase';

// StreamRuns' NDJSON pages read by binary COPY (the Postgres path) against the same pages read through Prisma (the
// path PGlite keeps): the same bytes, batches, cursors and truncation, on real Postgres.
const adminUrl = process.env['DATABASE_URL'];
if (!adminUrl && process.env['REQUIRE_SERVICES'] === '1') throw new Error('DATABASE_URL must be set when REQUIRE_SERVICES=1');
if (!adminUrl) process.stderr.write('SKIPPED: StreamRuns NDJSON pages by COPY tests (set DATABASE_URL to run them)\n');

jest.setTimeout(120_000);

// Names a filter must match as plain text: quotes, backslashes, SQL and placeholders in values.
const NASTY_NAMES = [
  `O'Brien "quoted" \\ back\\slash`,
  `x'); DROP TABLE runs; --`,
  `\\'; SELECT pg_sleep(5); --`,
  `$1 $$ $2::text`,
  `E'\\x' || '`,
  `*/ /* -- ;`,
  `line\nbreak\ttab é 😀 \u2028`,
  `100%_\\ off`,
];

// A filter string literal for `text` (the filter language's escapes).
const filterString = (text: string) => JSON.stringify(text);

(adminUrl ? describe : describe.skip)('NDJSON pages by binary COPY on Postgres', () => {
  let scratch: ScratchDatabase;
  let db: TracingDatabase;
  let pool: pg.Pool;
  let viaPrisma: RunPageRepository;
  let viaCopy: RunPageRepository;
  let projects: TracingProjectsRepository;
  const tenantId = randomUUID();
  const sessionId = randomUUID();
  const emptySession = randomUUID();
  const COUNT = 600;

  beforeAll(async () => {
    scratch = await createScratchPostgresDatabase(adminUrl!);
    db = await openTracingDatabase({ url: scratch.url, dataDir: 'unused' });
    await db.migrate();
    pool = new pg.Pool({ connectionString: scratch.url, max: 3 });
    viaPrisma = new RunPageRepository(prismaUnsortedSql(db.prisma));
    viaCopy = new RunPageRepository(prismaUnsortedSql(db.prisma), pgUnsortedCopySql(pool));
    projects = new TracingProjectsRepository(db.prisma);
    await insertProject(db.prisma, tenantId, sessionId);
    await insertProject(db.prisma, tenantId, emptySession);
    // Realistic runs (~1.5 KB inputs and outputs), 3 per start time.
    await insertRealisticRuns(db.prisma, { tenantId, sessionId, count: COUNT, perTimestamp: 3, payloadChars: 1500 });
    const named = await db.prisma.$queryRawUnsafe<{ id: string }[]>(
      `SELECT id::text AS id FROM runs WHERE session_id = $1::uuid ORDER BY start_time, id LIMIT $2`,
      sessionId,
      NASTY_NAMES.length + 6,
    );
    for (const [i, name] of NASTY_NAMES.entries()) {
      await db.prisma.$executeRawUnsafe(`UPDATE runs SET name = $2, tags = ARRAY[$2, 'plain'] WHERE id = $1::uuid`, named[i].id, name);
    }
    const [a, b, c, d, e, f] = named.slice(NASTY_NAMES.length).map((r) => r.id);
    // Text JSON must escape quotes, backslashes and control characters, and leave the rest of unicode alone.
    await db.prisma.$executeRawUnsafe(
      `UPDATE runs SET inputs = $2::jsonb, error = $3, outputs = NULL, extra = NULL, end_time = NULL, total_cost = NULL WHERE id = $1::uuid`,
      a,
      JSON.stringify({ q: 'h\u00e9llo "quoted" \\ back\nnew\u0001line 😀 \u2028', n: 0.1, big: 9007199254740991 }),
      'q"b\\s/\x01\b\f\n\r\t\x0b\x1f\x7f \u2028 é 😀',
    );
    // Nulls everywhere a column allows one.
    await db.prisma.$executeRawUnsafe(
      `UPDATE runs SET tags = NULL, parent_run_ids = NULL, inputs = NULL, outputs = NULL, extra = NULL, events = NULL, error = NULL,
         end_time = NULL, first_token_time = NULL,
         total_cost = NULL, prompt_cost = NULL, completion_cost = NULL, trace_tier = NULL, dotted_order = NULL, name = NULL WHERE id = $1::uuid`,
      b,
    );
    // Large rows: ~1 MB of incompressible inputs (many socket reads per CopyData message), and 300 KB of text.
    await db.prisma.$executeRawUnsafe(
      `UPDATE runs SET inputs = jsonb_build_object('text', (SELECT string_agg(md5(random()::text || g::text), '') FROM generate_series(1, 32000) AS g)) WHERE id = $1::uuid`,
      c,
    );
    await db.prisma.$executeRawUnsafe(`UPDATE runs SET outputs = jsonb_build_object('t', repeat('é\\"', 100000)) WHERE id = $1::uuid`, d);
    await db.prisma.$executeRawUnsafe(`UPDATE runs SET extra = jsonb_build_object('metadata', jsonb_build_object('who', $2::text)) WHERE id = $1::uuid`, e, `it's "me" \\`);
    await db.prisma.$executeRawUnsafe(
      `INSERT INTO feedback (tenant_id, id, run_id, key, score) VALUES ($1::uuid, gen_random_uuid(), $2::uuid, $3, 0.5)`,
      tenantId,
      f,
      `correct'ness "\\"`,
    );
    await db.prisma.$executeRawUnsafe('ANALYZE runs');
  });

  afterAll(async () => {
    await pool?.end();
    await db?.close();
    await scratch?.drop();
  });

  const request = (overrides: Partial<RunPageRequest> = {}): RunPageRequest => ({
    tenantId,
    sessionId,
    startUs: T0_US,
    endUs: T0_US + 10n ** 12n,
    fields: selectedRunFields([]),
    limit: 1000,
    encoding: 'ndjson',
    ...overrides,
  });

  /** Everything a page shows: its count, truncation, sizes, every cursor and the bytes of one batch of it all. */
  function pageView(page: RunPage) {
    const cursors = Array.from({ length: page.count }, (_, i) => page.cursorAt(i));
    const whole = page.count > 0 ? page.batch(0, page.count) : undefined;
    return {
      count: page.count,
      truncated: page.truncated,
      sizes: [...page.sizes],
      cursors,
      batch: whole && { ...whole, ndjson: { ...whole.ndjson, lines: Buffer.from(whole.ndjson!.lines as Buffer).toString('hex') } },
    };
  }

  async function expectSamePage(page: RunPageRequest): Promise<RunPage> {
    const [expected, actual] = await Promise.all([viaPrisma.readPage(page), viaCopy.readPage(page)]);
    expect(pageView(actual)).toEqual(pageView(expected));
    return actual;
  }

  /** The stream's batches, their bytes as hex (Jest compares long strings much faster than Buffers). */
  async function stream(runs: RunPageRepository, query: Partial<RunStreamQuery>, signal?: AbortSignal): Promise<RunBatch[]> {
    const deps: StreamRunsDeps = { runs, projects };
    const full: RunStreamQuery = { tenantId, sessionId, startUs: T0_US, endUs: T0_US + 10n ** 12n, fields: [], batchSize: 1000, encoding: 'ndjson', ...query };
    const batches: RunBatch[] = [];
    for await (const batch of streamRunBatches(deps, full, signal)) {
      batches.push({ ...batch, ndjson: { ...batch.ndjson, lines: Buffer.from(batch.ndjson!.lines as Buffer).toString('hex') } });
    }
    return batches;
  }

  const idle = async () => {
    for (let i = 0; i < 250 && (pool.idleCount !== pool.totalCount || pool.waitingCount > 0); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount };
  };

  it('reads the same page bytes, sizes, cursors and truncation as the query: all fields, unicode, escapes, nulls, large rows', async () => {
    const page = await expectSamePage(request());
    expect(page.count).toBe(COUNT);
    const text = Buffer.from(page.batch(0, page.count).ndjson!.lines as Buffer).toString('utf8');
    const lines = text.slice(0, -1).split('\n');
    expect(lines).toHaveLength(COUNT);
    // The lines are JSON, one per run, and the nasty values came back as they were stored.
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(parsed.map((run) => run.name)).toEqual(expect.arrayContaining(NASTY_NAMES));
    expect(Math.max(...page.sizes)).toBeGreaterThan(1_000_000);
    // A few fields only, and a page after a cursor inside a tie.
    await expectSamePage(request({ fields: selectedRunFields(['name', 'error', 'tags']) }));
    const after = page.cursorAt(301);
    await expectSamePage(request({ after: { startTimeUs: BigInt(after.start_time), id: after.id }, limit: 50 }));
  });

  it('cuts a page by stored bytes as the query does, and sizes the next page from it', async () => {
    for (const maxStoredBytes of [1, 10_000, 200_000, 1_500_000, 100_000_000]) {
      const page = await expectSamePage(request({ maxStoredBytes }));
      expect(page.count).toBeGreaterThan(0);
      if (maxStoredBytes === 1) expect(page).toMatchObject({ count: 1, truncated: true });
      if (maxStoredBytes === 100_000_000) expect(page).toMatchObject({ count: COUNT, truncated: false });
    }
    // A full page (count = limit) is not "truncated"; a short one at the window's end is not either.
    await expectSamePage(request({ maxStoredBytes: 100_000_000, limit: 10 }));
    const last = (await viaPrisma.readPage(request())).cursorAt(COUNT - 5);
    const tail = await expectSamePage(request({ maxStoredBytes: 100_000_000, after: { startTimeUs: BigInt(last.start_time), id: last.id } }));
    expect(tail).toMatchObject({ count: 4, truncated: false });
  });

  it('reads an empty page: no runs in the window, or none after the cursor', async () => {
    const none = await expectSamePage(request({ sessionId: emptySession, maxStoredBytes: 1000 }));
    expect(none).toMatchObject({ count: 0, truncated: false });
    const beyond = await expectSamePage(request({ startUs: T0_US + 10n ** 13n, endUs: T0_US + 10n ** 14n }));
    expect(beyond.count).toBe(0);
    expect(await stream(viaCopy, { sessionId: emptySession })).toEqual([]);
  });

  it('streams byte-identical batches, with the stream sizing its pages by bytes, in small and in large batches', async () => {
    for (const query of [{ batchSize: 1000 }, { batchSize: 7, maxBatchBytes: 30_000 }, { batchSize: 10_000, fields: ['name' as const, 'inputs' as const] }]) {
      const [expected, actual] = await Promise.all([stream(viaPrisma, query), stream(viaCopy, query)]);
      expect(actual.reduce((n, b) => n + b.ndjson!.count!, 0)).toBe(COUNT);
      expect(actual).toEqual(expected);
    }
  });

  it('applies filters with string literals (quotes, backslashes, SQL, placeholders) as the bound query does', async () => {
    const filters = [
      ...NASTY_NAMES.map((name) => `eq(name, ${filterString(name)})`),
      ...NASTY_NAMES.map((name) => `has(tags, ${filterString(name)})`),
      `in(name, [${NASTY_NAMES.map(filterString).join(', ')}])`,
      `like(name, ${filterString("%'); DROP%")})`,
      `search(${filterString("O'Brien \"quoted\" \\")})`,
      `search(${filterString('100%_\\')})`,
      `neq(name, ${filterString(NASTY_NAMES[1])})`,
      `and(eq(metadata_key, "who"), eq(metadata_value, ${filterString(`it's "me" \\`)}))`,
      `has(metadata, ${filterString(JSON.stringify({ who: `it's "me" \\` }))})`,
      `eq(feedback_key, ${filterString(`correct'ness "\\"`)})`,
      `and(gte(total_tokens, 203), lt(total_cost, 1), eq(is_root, true), gt(start_time, "2024-05-01T00:00:00.050Z"))`,
      `eq(input_key, "question")`,
    ];
    for (const text of filters) {
      const filter = compileFilter(text, { alias: 'r', firstParam: RUN_PAGE_FILTER_FIRST_PARAM });
      const page = await expectSamePage(request({ filter, fields: selectedRunFields(['name', 'tags']) }));
      expect({ text, matched: page.count > 0 }).toEqual({ text, matched: true });
    }
    for (const name of NASTY_NAMES) {
      const filter = compileFilter(`eq(name, ${filterString(name)})`, { alias: 'r', firstParam: RUN_PAGE_FILTER_FIRST_PARAM });
      const page = await viaCopy.readPage(request({ filter, fields: selectedRunFields(['name']) }));
      const line = Buffer.from(page.batch(0, page.count).ndjson!.lines as Buffer).toString('utf8');
      expect(page.count).toBe(1);
      expect(JSON.parse(line).name).toBe(name);
    }
    // Nothing ran but the SELECTs: the table and its rows are all there.
    const [{ n }] = await db.prisma.$queryRawUnsafe<{ n: number }[]>('SELECT count(*)::int AS n FROM runs');
    expect(n).toBe(COUNT);
  });

  it('writes values as literals Postgres reads back as the same text, whatever standard_conforming_strings says', async () => {
    const client = await pool.connect();
    try {
      for (const setting of ['on', 'off']) {
        await client.query(`SET standard_conforming_strings = ${setting}`);
        for (const text of [...NASTY_NAMES, `\\`, `'`, `\\'`, `''\\\\''`, `\\x00`, `E'`, `${'\\'.repeat(9)}'`]) {
          const { rows } = await client.query<{ v: string }>(`SELECT ${quoteSqlString(text)}::text AS v`);
          expect({ setting, v: rows[0].v }).toEqual({ setting, v: text });
        }
      }
    } finally {
      await client.query('RESET standard_conforming_strings');
      client.release();
    }
    // The page's own values are checked before they are written: a non-UUID id never reaches the SQL.
    expect(() => buildRunPageCopySql(request({ tenantId: `${tenantId}' OR true --` }))).toThrow('tenantId must be a UUID');
    expect(() => buildRunPageCopySql(request({ after: { startTimeUs: T0_US, id: "x'" } }))).toThrow('after.id must be a UUID');
    expect(() => buildRunPageCopySql(request({ limit: 1.5 }))).toThrow('limit');
    expect(() => buildRunPageCopySql(request({ maxStoredBytes: -1 }))).toThrow('maxStoredBytes');
  });

  it('fails a page whose query fails, as the query through Prisma does, and discards the connection', async () => {
    // A LIKE pattern ending in its escape character passes the filter's checks and fails in Postgres, bound or written in.
    const bad = `like(name, ${filterString('run\\')})`;
    const filter = compileFilter(bad, { alias: 'r', firstParam: RUN_PAGE_FILTER_FIRST_PARAM });
    const viaQuery = await viaPrisma.readPage(request({ filter })).then(
      () => undefined,
      (err: Error) => err,
    );
    expect(viaQuery?.message).toMatch(/LIKE pattern must not end with escape character/);
    await expect(viaCopy.readPage(request({ filter }))).rejects.toMatchObject({ code: '22025', message: 'LIKE pattern must not end with escape character' });
    // A NUL in a filter value fails before any SQL is sent (binding it fails too: text cannot hold NUL).
    const nul = compileFilter(`eq(name, "a\\u0000b")`, { alias: 'r', firstParam: RUN_PAGE_FILTER_FIRST_PARAM });
    await expect(viaPrisma.readPage(request({ filter: nul }))).rejects.toThrow();
    await expect(viaCopy.readPage(request({ filter: nul }))).rejects.toThrow('NUL');
    // A failed stream surfaces the error the use case gets from the page.
    await expect(stream(viaCopy, { filter: bad })).rejects.toMatchObject({ code: '22025' });
    expect(await idle()).toEqual({ total: pool.totalCount, idle: pool.totalCount, waiting: 0 });
    // The pool goes on serving pages.
    await expectSamePage(request({ limit: 3 }));
  });

  it('releases the connection when the stream is left mid-page (the page in flight is read to its end, then dropped)', async () => {
    const before = await stream(viaCopy, { batchSize: 50 });
    const controller = new AbortController();
    const deps: StreamRunsDeps = { runs: viaCopy, projects };
    const query: RunStreamQuery = { tenantId, sessionId, startUs: T0_US, endUs: T0_US + 10n ** 12n, fields: [], batchSize: 50, maxBatchBytes: 60_000, encoding: 'ndjson' };
    let seen = 0;
    for await (const _batch of streamRunBatches(deps, query, controller.signal)) {
      // After the first batch the next page is being read (prefetch): abort while it is in flight.
      if (++seen === 1) {
        controller.abort();
        break;
      }
    }
    expect(seen).toBe(1);
    expect(await idle()).toEqual({ total: pool.totalCount, idle: pool.totalCount, waiting: 0 });
    const { rows } = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE '%TO STDOUT (FORMAT binary)%' AND state <> 'idle'`,
    );
    expect(rows[0].n).toBe(0);
    // And a stream left without reading on (the generator returned) leaves nothing behind either.
    const iterator = streamRunBatches(deps, { ...query, encoding: 'ndjson' })[Symbol.asyncIterator]();
    await iterator.next();
    await iterator.return(undefined);
    expect(await idle()).toEqual({ total: pool.totalCount, idle: pool.totalCount, waiting: 0 });
    expect(await stream(viaCopy, { batchSize: 50 })).toEqual(before);
  });

  it('gives every page buffer back once its pages and batches are released, also when the stream is left early', async () => {
    /** A pool that counts its buffers out (taken and not given back). */
    class CountingPool extends PageBufferPool {
      out = 0;
      override take(bytes: number): Buffer {
        this.out++;
        return super.take(bytes);
      }
      override give(buffer: Buffer): void {
        this.out--;
        super.give(buffer);
      }
    }
    const buffers = new CountingPool();
    const pooled = new RunPageRepository(prismaUnsortedSql(db.prisma), pgUnsortedCopySql(pool), buffers);
    const deps: StreamRunsDeps = { runs: pooled, projects };
    const query: RunStreamQuery = { tenantId, sessionId, startUs: T0_US, endUs: T0_US + 10n ** 12n, fields: [], batchSize: 50, maxBatchBytes: 60_000, encoding: 'ndjson' };
    const expected = await stream(viaPrisma, { batchSize: 50, maxBatchBytes: 60_000 });
    const hex = (batch: RunBatch) => Buffer.from(batch.ndjson!.lines as Buffer).toString('hex');

    // Every batch released as soon as it is read: a few buffers serve the whole stream, the same bytes as Prisma's.
    const read: string[] = [];
    for await (const batch of streamRunBatches(deps, query)) {
      read.push(hex(batch));
      releaseRunBatch(batch);
    }
    expect(read).toEqual(expected.map((batch) => batch.ndjson!.lines));
    expect(buffers.out).toBe(0);
    expect(buffers.size).toBeGreaterThan(0);

    // Batches held (not released) keep their bytes while later pages are written from the pool.
    const held: { batch: RunBatch; bytes: string }[] = [];
    for await (const batch of streamRunBatches(deps, query)) held.push({ batch, bytes: hex(batch) });
    expect(held.map((h) => hex(h.batch))).toEqual(held.map((h) => h.bytes));
    expect(buffers.out).toBeGreaterThan(0);
    for (const { batch } of held) releaseRunBatch(batch);
    expect(buffers.out).toBe(0);

    // Left after one batch, with the next page in flight: the pages' holds end with the stream, the batch's with it.
    const iterator = streamRunBatches(deps, query)[Symbol.asyncIterator]();
    const first = await iterator.next();
    await iterator.return(undefined);
    releaseRunBatch(first.value as RunBatch);
    for (let i = 0; i < 250 && buffers.out > 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(buffers.out).toBe(0);
    // Aborted through its signal mid-page.
    const controller = new AbortController();
    for await (const batch of streamRunBatches(deps, query, controller.signal)) {
      releaseRunBatch(batch);
      controller.abort();
    }
    for (let i = 0; i < 250 && buffers.out > 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(buffers.out).toBe(0);
    expect(await idle()).toEqual({ total: pool.totalCount, idle: pool.totalCount, waiting: 0 });
  });
});
