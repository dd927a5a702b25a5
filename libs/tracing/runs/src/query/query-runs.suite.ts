import { FilterSyntaxError } from '@platform/tracing-filter';
import { prismaIngestSql, type TracingDatabase } from '@platform/tracing-data-access';
import { queryRuns } from './query-runs.usecase';
import { runQueryRequestSchema, toRunQuery } from './run-query-request.schema';
import { RunQueryRepository } from './run-query.repository';
import { insertFeedback, insertRuns, uuidOf } from './run-query.testing';

const T = uuidOf(1, '11111111');
const OTHER = uuidOf(2, '22222222');
const [S1, S2, S3] = [1, 2, 3].map((n) => uuidOf(n, '33333333'));
const EXAMPLE = uuidOf(1, '44444444');
const ids = { a0: uuidOf(10), a1: uuidOf(11), a2: uuidOf(12), b0: uuidOf(20), b1: uuidOf(21), c0: uuidOf(30) };
type Label = keyof typeof ids;
const LABELS = new Map(Object.entries(ids).map(([label, id]) => [id, label]));
const at = (seconds: number) => `2024-05-01T10:00:${String(seconds).padStart(2, '0')}Z`;

/**
 * `POST /runs/query` behaviour on a real database: every body field, filters on the run, its root and its trace,
 * ordering and keyset paging. Shared by the PGlite spec and the Postgres integration spec; `open` gives a migrated,
 * empty tracing database.
 */
export function describeQueryRuns(name: string, open: () => Promise<{ db: TracingDatabase; drop: () => Promise<void> }>): void {
  describe(name, () => {
    let db: TracingDatabase;
    let drop: () => Promise<void>;
    let repository: RunQueryRepository;

    beforeAll(async () => {
      ({ db, drop } = await open());
      const exec = (sql: string, ...params: unknown[]) => db.prisma.$executeRawUnsafe(sql, ...params);
      await insertRuns(exec, [
        { tenantId: T, id: ids.a0, sessionId: S1, name: 'agent', startTime: at(0), endTime: at(5), inputs: { question: 'What is the weather?' } },
        { tenantId: T, id: ids.a1, sessionId: S1, traceId: ids.a0, parentRunId: ids.a0, name: 'ChatOpenAI', runType: 'llm', startTime: at(1) },
        { tenantId: T, id: ids.a2, sessionId: S1, traceId: ids.a0, parentRunId: ids.a0, name: 'search', runType: 'tool', startTime: at(2), error: 'boom' },
        { tenantId: T, id: ids.b0, sessionId: S1, name: 'agent', startTime: at(10), tags: ['prod'], referenceExampleId: EXAMPLE },
        { tenantId: T, id: ids.b1, sessionId: S1, traceId: ids.b0, parentRunId: ids.b0, name: 'ChatOpenAI', runType: 'llm', startTime: at(11) },
        { tenantId: T, id: ids.c0, sessionId: S2, name: 'ChatAnthropic', runType: 'llm', startTime: at(20), extra: { metadata: { thread_id: 't1' } } },
        // never listed: only patched so far, another tenant's, no start time
        { tenantId: T, id: uuidOf(40), sessionId: S1, startTime: at(5), hasCreate: false },
        { tenantId: OTHER, id: uuidOf(50), sessionId: S1, startTime: at(3) },
        { tenantId: T, id: uuidOf(60), sessionId: S1, startTime: null },
      ]);
      await insertFeedback(exec, T, uuidOf(1, '55555555'), ids.a0, 'user_score', 1);
      await insertFeedback(exec, T, uuidOf(2, '55555555'), ids.b1, 'correctness', 0);
      // Ties on start_time, for paging: 25 runs over 5 distinct times.
      await insertRuns(
        exec,
        Array.from({ length: 25 }, (_, i) => ({ tenantId: T, id: uuidOf(100 + ((i * 7) % 25)), sessionId: S3, startTime: at(30 + (i % 5)) })),
      );
      repository = new RunQueryRepository(prismaIngestSql(db.prisma));
    });
    afterAll(async () => {
      await db?.close();
      await drop?.();
    });

    const query = async (body: Record<string, unknown>) => queryRuns(repository, toRunQuery(T, runQueryRequestSchema.parse(body)));
    const labels = async (body: Record<string, unknown>) => (await query({ session: [S1, S2], ...body })).runs.map((r) => LABELS.get(r.id) ?? r.id);

    it.each<[string, Record<string, unknown>, Label[]]>([
      ['every created run of the tenant, newest first', {}, ['c0', 'b1', 'b0', 'a2', 'a1', 'a0']],
      ['one project', { session: [S1] }, ['b1', 'b0', 'a2', 'a1', 'a0']],
      ['is_root', { is_root: true }, ['c0', 'b0', 'a0']],
      ['execution_order 1', { execution_order: 1 }, ['c0', 'b0', 'a0']],
      ['run_type', { run_type: 'llm' }, ['c0', 'b1', 'a1']],
      ['error true', { error: true }, ['a2']],
      ['error false', { error: false }, ['c0', 'b1', 'b0', 'a1', 'a0']],
      ['ids', { id: [ids.a1, ids.c0] }, ['c0', 'a1']],
      ['trace', { trace: ids.a0 }, ['a2', 'a1', 'a0']],
      ['parent_run', { parent_run: ids.a0 }, ['a2', 'a1']],
      ['reference_example', { reference_example: [EXAMPLE] }, ['b0']],
      ['half-open window on start_time', { start_time: at(2), end_time: at(11) }, ['b0', 'a2']],
      ['query (text search)', { query: 'WEATHER' }, ['a0']],
      ['filter', { filter: 'eq(name, "ChatOpenAI")' }, ['b1', 'a1']],
      ['filter on metadata', { filter: 'eq(thread_id, "t1")' }, ['c0']],
      ['trace_filter on the root', { trace_filter: 'and(eq(feedback_key, "user_score"), eq(feedback_score, 1))' }, ['a2', 'a1', 'a0']],
      [
        'filter and trace_filter together (the SDK example)',
        { filter: 'eq(name, "ChatOpenAI")', trace_filter: 'and(eq(feedback_key, "user_score"), eq(feedback_score, 1))' },
        ['a1'],
      ],
      ['tree_filter on any run of the trace', { tree_filter: 'has(tags, "prod")' }, ['b1', 'b0']],
      ['tree_filter matching a child', { tree_filter: 'neq(error, null)' }, ['a2', 'a1', 'a0']],
      ['ascending order', { order: 'asc' }, ['a0', 'a1', 'a2', 'b0', 'b1', 'c0']],
      ['nulls from the SDK mean "not set"', { run_type: null, filter: null, start_time: null, is_root: null }, ['c0', 'b1', 'b0', 'a2', 'a1', 'a0']],
    ])('%s', async (_label, body, expected) => {
      expect(await labels(body)).toEqual(expected);
    });

    it('returns runs in the API shape', async () => {
      const { runs, cursors } = await query({ id: [ids.a1] });
      expect(cursors).toEqual({ next: null, prev: null });
      expect(runs[0]).toMatchObject({
        id: ids.a1,
        name: 'ChatOpenAI',
        run_type: 'llm',
        trace_id: ids.a0,
        parent_run_id: ids.a0,
        session_id: S1,
        start_time: '2024-05-01T10:00:01.000000Z',
        is_root: false,
        total_tokens: 0,
      });
    });

    it.each(['desc', 'asc'] as const)('pages through ties on start_time exactly once (%s)', async (order) => {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page = await query({ session: [S3], order, limit: 4, ...(cursor ? { cursor } : {}) });
        seen.push(...page.runs.map((r) => `${r.start_time} ${r.id}`));
        cursor = page.cursors.next;
        pages += 1;
      } while (cursor && pages < 20);
      const expected = [...seen].sort();
      expect(seen).toEqual(order === 'asc' ? expected : expected.reverse());
      expect(new Set(seen).size).toBe(25);
      expect(pages).toBe(7);
    });

    it('caps limit at 100 and stops with a null cursor on the last page', async () => {
      expect(toRunQuery(T, runQueryRequestSchema.parse({ limit: 1000 })).limit).toBe(100);
      const page = await query({ session: [S3], limit: 25 });
      expect(page.runs).toHaveLength(25);
      expect(page.cursors.next).toBeNull();
    });

    it('names the bad filter and its position', async () => {
      await expect(query({ filter: 'and(eq(name, "a"), )' })).rejects.toThrow(
        new FilterSyntaxError('Invalid filter: Unexpected ")" at position 19: expected a value', 19),
      );
      await expect(query({ trace_filter: 'eq(nope, 1)' })).rejects.toMatchObject({
        message: 'Invalid trace_filter: Unknown field "nope" at position 3',
        position: 3,
      });
    });

    it('refuses a cursor it did not make', async () => {
      await expect(query({ cursor: 'bm90IGEgY3Vyc29y' })).rejects.toThrow('Invalid cursor');
    });
  });
}
