import { randomUUID } from 'node:crypto';
import type { RunBatch } from '@platform/contracts';
import { InputError, NotFoundError } from '@platform/errors';
import { openTracingDatabase, prismaUnsortedSql, TracingProjectsRepository, type TracingDatabase } from '@platform/tracing-data-access';
import { RunPageRepository, type RunPageReader } from './run-page.repository';
import type { RunPage } from './run-pages';
import { buildRunPageSql } from './run-page.sql';
import { selectedRunFields } from './run-stream-columns';
import { compareCursors, insertProject, insertRuns, T0_US } from './run-stream.testing';
import type { RunStreamQuery } from './run-stream.types';
import { streamRunBatches, type StreamRunsDeps } from './stream-runs.usecase';

let db: TracingDatabase;
let deps: StreamRunsDeps;
const tenantId = randomUUID();
const sessionId = randomUUID();

beforeAll(async () => {
  db = await openTracingDatabase({ dataDir: 'memory://' });
  await db.migrate();
  deps = { runs: new RunPageRepository(prismaUnsortedSql(db.prisma)), projects: new TracingProjectsRepository(db.prisma) };
  await insertProject(db.prisma, tenantId, sessionId);
});
afterAll(() => db.close());

async function collect(query: Partial<RunStreamQuery>, signal?: AbortSignal): Promise<RunBatch[]> {
  const batches: RunBatch[] = [];
  const full: RunStreamQuery = { tenantId, sessionId, startUs: T0_US, endUs: T0_US + 10n ** 12n, fields: [], batchSize: 1000, ...query };
  for await (const batch of streamRunBatches(deps, full, signal)) batches.push(batch);
  return batches;
}

const runsOf = (batches: RunBatch[]) => batches.flatMap((b) => b.runs ?? []);
const cursorsOf = (batches: RunBatch[]) => runsOf(batches).map((r) => ({ start_time: String(r.start_time), id: String(r.id) }));

/** A fresh project with its own runs, so tests do not see each other's rows. */
async function project(): Promise<string> {
  const id = randomUUID();
  await insertProject(db.prisma, tenantId, id);
  return id;
}

describe('streamRunBatches (PGlite)', () => {
  it('reads the half-open window: a run at start is included, one at end excluded', async () => {
    const session = await project();
    // Runs at T0-1µs, T0, T0+1µs, T0+2µs, T0+3µs.
    await insertRuns(db.prisma, { tenantId, sessionId: session, count: 5, firstUs: T0_US - 1n, stepUs: 1 });
    const batches = await collect({ sessionId: session, startUs: T0_US, endUs: T0_US + 3n });
    expect(runsOf(batches).map((r) => r.start_time)).toEqual([String(T0_US), String(T0_US + 1n), String(T0_US + 2n)]);
  });

  it('orders runs with equal start times by id, and batches carry the last run as cursor', async () => {
    const session = await project();
    await insertRuns(db.prisma, { tenantId, sessionId: session, count: 250, perTimestamp: 25 });
    const batches = await collect({ sessionId: session, batchSize: 40 });
    const cursors = cursorsOf(batches);
    expect(cursors).toHaveLength(250);
    expect([...cursors].sort(compareCursors)).toEqual(cursors);
    expect(new Set(cursors.map((c) => c.id)).size).toBe(250);
    expect(batches.map((b) => b.runs?.length)).toEqual([40, 40, 40, 40, 40, 40, 10]);
    for (const batch of batches) {
      const last = batch.runs![batch.runs!.length - 1];
      expect(batch.cursor).toEqual({ start_time: String(last.start_time), id: last.id });
    }
  });

  it('resumes strictly after a cursor, also in the middle of equal start times', async () => {
    const session = await project();
    await insertRuns(db.prisma, { tenantId, sessionId: session, count: 100, perTimestamp: 10 });
    const all = cursorsOf(await collect({ sessionId: session }));
    for (const at of [0, 14, 15, 57, 99]) {
      const after = { startTimeUs: BigInt(all[at].start_time), id: all[at].id };
      const rest = cursorsOf(await collect({ sessionId: session, after, batchSize: 7 }));
      expect(rest).toEqual(all.slice(at + 1));
    }
  });

  it('fills only the requested fields plus id and start_time', async () => {
    const session = await project();
    await insertRuns(db.prisma, { tenantId, sessionId: session, count: 3 });
    const [run] = runsOf(await collect({ sessionId: session, fields: ['name', 'total_tokens'] }));
    expect(Object.keys(run).sort()).toEqual(['id', 'name', 'start_time', 'total_tokens']);
    expect(run).toMatchObject({ name: 'run-0', total_tokens: '0' });
  });

  it('encodes every exportable field as the proto says, leaving nulls absent', async () => {
    const session = await project();
    const id = randomUUID();
    const parent = randomUUID();
    await db.prisma.$executeRawUnsafe(
      `INSERT INTO runs (tenant_id, id, session_id, trace_id, parent_run_id, parent_run_ids, name, run_type, status,
         start_time, end_time, first_token_time, dotted_order, is_root, inputs, outputs, extra, events, tags,
         feedback_stats, prompt_tokens, completion_tokens, total_tokens, prompt_cost, total_cost, has_create)
       VALUES ($1::uuid, $2::uuid, $3::uuid, $4::uuid, $4::uuid, ARRAY[$4::uuid], 'llm-call', 'llm', 'success',
         '2024-05-01T00:00:00.123456Z', '2024-05-01T00:00:01.5Z', '2024-05-01T00:00:00.9Z', 'a.b', false,
         '{"q": "héllo"}', '{"a": [1, 2]}', '{"metadata": {"k": "v"}}', '[]', ARRAY['x', 'y'],
         '{"score": {"n": 1}}', 12, 30, 42, 0.000123, 0.5, true)`,
      tenantId,
      id,
      session,
      parent,
    );
    const [run] = runsOf(await collect({ sessionId: session }));
    expect(run).toEqual({
      id,
      tenant_id: tenantId,
      session_id: session,
      trace_id: parent,
      parent_run_id: parent,
      parent_run_ids: [parent],
      name: 'llm-call',
      run_type: 'llm',
      start_time: '1714521600123456',
      end_time: '1714521601500000',
      status: 'success',
      is_root: false,
      dotted_order: 'a.b',
      inputs: '{"q": "héllo"}',
      outputs: '{"a": [1, 2]}',
      extra: '{"metadata": {"k": "v"}}',
      events: '[]',
      tags: ['x', 'y'],
      feedback_stats: '{"score": {"n": 1}}',
      total_tokens: '42',
      prompt_tokens: '12',
      completion_tokens: '30',
      total_cost: '0.5',
      prompt_cost: '0.000123',
      first_token_time: '1714521600900000',
    });
  });

  it('sees only the tenant and project asked for, and only runs whose create arrived', async () => {
    const session = await project();
    const otherTenant = randomUUID();
    await insertRuns(db.prisma, { tenantId, sessionId: session, count: 3, runType: 'tool' });
    await insertRuns(db.prisma, { tenantId, sessionId: session, count: 4, hasCreate: false });
    await insertRuns(db.prisma, { tenantId, sessionId: sessionId, count: 5 });
    await insertRuns(db.prisma, { tenantId: otherTenant, sessionId: session, count: 6 });
    const runs = runsOf(await collect({ sessionId: session, fields: ['run_type', 'tenant_id', 'session_id'] }));
    expect(runs).toHaveLength(3);
    expect(runs.every((r) => r.run_type === 'tool' && r.tenant_id === tenantId && r.session_id === session)).toBe(true);
  });

  it('applies a filter', async () => {
    const session = await project();
    await insertRuns(db.prisma, { tenantId, sessionId: session, count: 5, runType: 'llm' });
    await insertRuns(db.prisma, { tenantId, sessionId: session, count: 7, runType: 'chain' });
    const runs = runsOf(await collect({ sessionId: session, filter: 'eq(run_type, "llm")', fields: ['run_type'] }));
    expect(runs.map((r) => r.run_type)).toEqual(['llm', 'llm', 'llm', 'llm', 'llm']);
    const resumed = runsOf(await collect({ sessionId: session, filter: 'eq(run_type, "llm")', batchSize: 2 }));
    expect(resumed).toHaveLength(5);
  });

  it('rejects a bad filter with InputError and an unknown project with NotFoundError', async () => {
    await expect(collect({ filter: 'eq(run_type' })).rejects.toBeInstanceOf(InputError);
    await expect(collect({ sessionId: randomUUID() })).rejects.toBeInstanceOf(NotFoundError);
    await expect(collect({ tenantId: randomUUID() })).rejects.toBeInstanceOf(NotFoundError);
  });

  describe('pages of large runs', () => {
    // Random hex: Postgres cannot compress it, so each value is stored (TOASTed) at its full ~3.2 KB.
    const LARGE_INPUTS = `jsonb_build_object('text', (SELECT string_agg(md5(random()::text || g::text), '') FROM generate_series(1, 100) AS g))`;
    async function largeRuns(count: number): Promise<string> {
      const session = await project();
      await insertRuns(db.prisma, { tenantId, sessionId: session, count, perTimestamp: 2 });
      await db.prisma.$executeRawUnsafe(`UPDATE runs SET inputs = ${LARGE_INPUTS} WHERE session_id = $1::uuid`, session);
      return session;
    }
    const repository = () => new RunPageRepository(prismaUnsortedSql(db.prisma));
    const request = (session: string, encoding: 'messages' | 'ndjson') => ({
      tenantId,
      sessionId: session,
      startUs: T0_US,
      endUs: T0_US + 10n ** 12n,
      fields: selectedRunFields(['inputs']),
      limit: 1000,
      encoding,
    });

    it.each(['messages', 'ndjson'] as const)('a %s page stops at its stored-byte budget; the first run always comes', async (encoding) => {
      const session = await largeRuns(12);
      const whole = await repository().readPage(request(session, encoding));
      expect(whole.count).toBe(12);
      expect(whole.truncated).toBe(false);
      // ~3.7 KB counted per run (3.2 KB of inputs, 512 for the rest): runs starting below 10 KB are the first three.
      const cut = await repository().readPage({ ...request(session, encoding), maxStoredBytes: 10_000 });
      expect(cut.count).toBe(3);
      expect(cut.truncated).toBe(true);
      expect([0, 1, 2].map((i) => cut.cursorAt(i))).toEqual([0, 1, 2].map((i) => whole.cursorAt(i)));
      const one = await repository().readPage({ ...request(session, encoding), maxStoredBytes: 1 });
      expect(one.count).toBe(1);
      expect(one.truncated).toBe(true);
      // A budget the whole window fits in leaves a short page that is the end, not a cut.
      const roomy = await repository().readPage({ ...request(session, encoding), maxStoredBytes: 10_000_000 });
      expect(roomy.count).toBe(12);
      expect(roomy.truncated).toBe(false);
    });

    it.each(['messages', 'ndjson'] as const)('a stream of %s reads on after pages cut by bytes, every run once and in order', async (encoding) => {
      const session = await largeRuns(30);
      const pages: RunPage[] = [];
      const recording: RunPageReader = {
        readPage: async (page) => {
          const read = await repository().readPage(page);
          pages.push(read);
          return read;
        },
      };
      const batches: RunBatch[] = [];
      // Batches of ≤ 4 KB make a page budget of 16 KB: four runs a page.
      const query: RunStreamQuery = { tenantId, sessionId: session, startUs: T0_US, endUs: T0_US + 10n ** 12n, fields: ['inputs'], batchSize: 1000, maxBatchBytes: 4_000, encoding };
      for await (const batch of streamRunBatches({ ...deps, runs: recording }, query)) batches.push(batch);
      const expected = cursorsOf(await collect({ sessionId: session }));
      expect(batches.map((b) => b.cursor)).toEqual(expected);
      expect(pages[0].truncated).toBe(true);
      expect(pages[0].count).toBeLessThan(1000);
      expect(Math.max(...pages.map((p) => p.count))).toBeLessThanOrEqual(5);
    });
  });

  it('closes a batch before it outgrows maxBatchBytes', async () => {
    const session = await project();
    await insertRuns(db.prisma, { tenantId, sessionId: session, count: 50 });
    await db.prisma.$executeRawUnsafe(`UPDATE runs SET inputs = jsonb_build_object('text', repeat('x', 1000)) WHERE session_id = $1::uuid`, session);
    const batches = await collect({ sessionId: session, fields: ['inputs'], maxBatchBytes: 5_000 });
    expect(runsOf(batches)).toHaveLength(50);
    expect(batches.every((b) => b.runs!.length <= 4)).toBe(true);
  });

  describe('NDJSON encoding', () => {
    const linesOf = (batch: RunBatch) => {
      const text = Buffer.from(batch.ndjson!.lines as Buffer).toString('utf8');
      expect(text.endsWith('\n')).toBe(true);
      return text.slice(0, -1).split('\n');
    };
    const parsedOf = (batches: RunBatch[]) => batches.flatMap((b) => linesOf(b).map((line) => JSON.parse(line) as Record<string, unknown>));
    const withoutNulls = (run: Record<string, unknown>) => Object.fromEntries(Object.entries(run).filter(([, v]) => v !== null));

    it('carries each run as the JSON form of its Run message: same fields, same values, null where the message has none', async () => {
      const session = await project();
      await insertRuns(db.prisma, { tenantId, sessionId: session, count: 20, perTimestamp: 3 });
      await db.prisma.$executeRawUnsafe(
        `UPDATE runs SET inputs = '{"q": "h\u00e9llo \\"quoted\\"\\n", "n": 0.10000000000000000001, "big": 123456789012345678901234567890}',
           tags = ARRAY['x', 'ü'], total_cost = 0.000123, prompt_tokens = 9223372036854775807
         WHERE session_id = $1::uuid AND name = 'run-4'`,
        session,
      );
      await db.prisma.$executeRawUnsafe(`UPDATE runs SET tags = NULL WHERE session_id = $1::uuid AND name = 'run-5'`, session);
      // Text JSON must escape (quote, backslash, control characters) beside text it must leave alone.
      await db.prisma.$executeRawUnsafe(
        `UPDATE runs SET error = $2 WHERE session_id = $1::uuid AND name = 'run-6'`,
        session,
        'q"b\\s/\x01\b\f\n\r\t\x0b\x1f\x7f \u2028 é 😀',
      );
      const messages = runsOf(await collect({ sessionId: session }));
      const batches = await collect({ sessionId: session, encoding: 'ndjson' });
      // Postgres writes each line as JSON.stringify writes the same row of the column-per-field query.
      const { sql, params } = buildRunPageSql({ tenantId, sessionId: session, startUs: T0_US, endUs: T0_US + 10n ** 12n, fields: selectedRunFields([]), limit: 1000 });
      const rows = await db.prisma.$queryRawUnsafe<Record<string, unknown>[]>(sql, ...params);
      expect(batches.flatMap(linesOf)).toEqual(rows.map((row) => JSON.stringify(row)));
      expect(batches.every((b) => b.runs === undefined)).toBe(true);
      const lines = parsedOf(batches);
      expect(lines.map(withoutNulls)).toEqual(messages.map((run) => ({ parent_run_ids: [], tags: [], ...run })));
      // Every field is on every line (null when the message leaves it out), in export column order.
      expect(lines.every((line) => Object.keys(line).length === 29)).toBe(true);
      expect(Object.keys(lines[0]).slice(0, 4)).toEqual(['id', 'tenant_id', 'session_id', 'trace_id']);
      const edited = lines.find((line) => line.name === 'run-4')!;
      expect(edited).toMatchObject({ tags: ['x', 'ü'], total_cost: '0.000123', prompt_tokens: '9223372036854775807', parent_run_id: null });
      // JSON fields are strings of the stored JSON text: nothing re-parsed, no digit lost.
      expect(edited.inputs).toBe('{"n": 0.10000000000000000001, "q": "héllo \\"quoted\\"\\n", "big": 123456789012345678901234567890}');
      expect(lines.find((line) => line.name === 'run-5')!.tags).toEqual([]);
    });

    it('counts lines, measures the longest, carries the last cursor, and honours batch size, bytes and the requested fields', async () => {
      const session = await project();
      await insertRuns(db.prisma, { tenantId, sessionId: session, count: 50, perTimestamp: 4 });
      await db.prisma.$executeRawUnsafe(`UPDATE runs SET inputs = jsonb_build_object('text', repeat('é', (random() * 900)::int)) WHERE session_id = $1::uuid`, session);
      const all = await collect({ sessionId: session, fields: ['inputs'], encoding: 'ndjson', batchSize: 7, maxBatchBytes: 5_000 });
      const cursors = cursorsOf(await collect({ sessionId: session }));
      expect(all.reduce((n, b) => n + b.ndjson!.count!, 0)).toBe(50);
      for (const batch of all) {
        const lines = linesOf(batch);
        expect(lines).toHaveLength(batch.ndjson!.count!);
        expect(lines.length).toBeLessThanOrEqual(7);
        expect(batch.ndjson!.max_line_bytes).toBe(Math.max(...lines.map((l) => Buffer.byteLength(l))));
        if (lines.length > 1) expect((batch.ndjson!.lines as Buffer).length).toBeLessThanOrEqual(5_000);
        const last = JSON.parse(lines[lines.length - 1]);
        expect(batch.cursor).toEqual({ start_time: last.start_time, id: last.id });
      }
      const parsed = parsedOf(all);
      expect(parsed.map((r) => ({ start_time: r.start_time, id: r.id }))).toEqual(cursors);
      expect(Object.keys(parsed[0])).toEqual(['id', 'start_time', 'inputs']);
      const after = { startTimeUs: BigInt(cursors[21].start_time), id: cursors[21].id };
      const rest = parsedOf(await collect({ sessionId: session, fields: ['name'], encoding: 'ndjson', after, filter: 'eq(run_type, "chain")' }));
      expect(rest.map((r) => r.id)).toEqual(cursors.slice(22).map((c) => c.id));
    });
  });

  it('stops once the signal aborts', async () => {
    const session = await project();
    await insertRuns(db.prisma, { tenantId, sessionId: session, count: 30 });
    const controller = new AbortController();
    let seen = 0;
    for await (const _batch of streamRunBatches(
      deps,
      { tenantId, sessionId: session, startUs: T0_US, endUs: T0_US + 10n ** 12n, fields: [], batchSize: 5 },
      controller.signal,
    )) {
      if (++seen === 2) controller.abort();
    }
    expect(seen).toBe(2);
  });
});
