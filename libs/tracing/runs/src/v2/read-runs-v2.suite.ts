import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { InputError, NotFoundError, NotImplementedError, ValidationError } from '@platform/errors';
import { prismaIngestSql, type TracingDatabase } from '@platform/tracing-data-access';
import { FilterSyntaxError } from '@platform/tracing-filter';
import { AttachmentLinks } from '../attachments/attachment-links';
import { downloadAttachment } from '../attachments/download-attachment.usecase';
import { RunAttachmentsRepository } from '../attachments/run-attachments.repository';
import { batchFromJson } from '../ingest/ingest-batch';
import { TestProjects } from '../ingest/ingest-fixtures.testing';
import { IngestRuns } from '../ingest/ingest-runs.usecase';
import { RunQueryRepository } from '../query/run-query.repository';
import { RunsRepository } from '../runs.repository';
import { listTraceRunsV2 } from './list-trace-runs-v2.usecase';
import { queryRunsV2 } from './query-runs-v2.usecase';
import { queryTracesV2 } from './query-traces-v2.usecase';
import { retrieveRunV2 } from './retrieve-run-v2.usecase';
import { type ReadRunsV2Deps } from './read-runs-v2.deps';
import { runsQueryV2Schema, tracesQueryV2Schema } from './run-v2-requests.schema';
import type { RunSelectField } from './run-select-fields';

const at = (time: string) => `2024-05-01T${time}Z`;
const dotted = (time: string, id: string) => `20240501T${time.replace(/:/g, '')}000000Z${id}`;
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]);

/**
 * The v2 run reads (`client.runs.query()`, `runs.retrieve()`, `traces.query()`, `traces.listRuns()`) on a real
 * database, over runs stored by the real ingestion. Shared by the PGlite spec and the Postgres integration spec;
 * `open` gives a migrated, empty tracing database.
 */
export function describeReadRunsV2(name: string, open: () => Promise<{ db: TracingDatabase; drop: () => Promise<void> }>): void {
  describe(name, () => {
    let db: TracingDatabase;
    let drop: () => Promise<void>;
    let deps: ReadRunsV2Deps;
    let links: AttachmentLinks;
    let attachments: RunAttachmentsRepository;
    let now = Date.parse(at('13:00:00'));
    const tenantId = randomUUID();
    const caller = { tenantId, baseUrl: 'https://smith.example.com' };
    const projects = new TestProjects();
    const [P, P2] = [projects.add('main'), projects.add('other')];
    const id = { a: randomUUID(), a1: randomUUID(), a2: randomUUID(), b: randomUUID(), b1: randomUUID(), c: randomUUID() };
    const feedbackAt = Date.now();

    const runs = (body: Partial<z.input<typeof runsQueryV2Schema>>) => queryRunsV2(deps, caller, runsQueryV2Schema.parse({ project_ids: [P], min_start_time: at('11:00:00'), ...body }));
    const ids = async (body: Partial<z.input<typeof runsQueryV2Schema>>) => (await runs(body)).items.map((r) => label(r['id'] as string));
    const traces = (body: Partial<z.input<typeof tracesQueryV2Schema>>) => queryTracesV2(deps, caller, tracesQueryV2Schema.parse({ project_id: P, min_start_time: at('11:00:00'), ...body }));
    const label = (runId: string) => Object.entries(id).find(([, v]) => v === runId)?.[0] ?? runId;

    beforeAll(async () => {
      ({ db, drop } = await open());
      const sql = prismaIngestSql(db.prisma);
      const ingest = new IngestRuns(projects, new RunsRepository(sql));
      links = new AttachmentLinks({ secret: 'test-secret', ttlSeconds: 60 });
      attachments = new RunAttachmentsRepository(sql);
      deps = { reader: new RunQueryRepository(sql), attachments: { attachments, links }, now: () => now };
      const root = (runId: string, time: string) => ({ id: runId, trace_id: runId, dotted_order: dotted(time, runId), start_time: at(time) });
      const child = (runId: string, parent: string, time: string, parentTime: string) => ({
        id: runId,
        trace_id: parent,
        parent_run_id: parent,
        dotted_order: `${dotted(parentTime, parent)}.${dotted(time, runId)}`,
        start_time: at(time),
      });
      const usage = (input: number, output: number) => ({ usage_metadata: { input_tokens: input, output_tokens: output, total_tokens: input + output } });
      const batch = batchFromJson({
        post: [
          {
            ...root(id.a, '12:00:00'),
            session_id: P,
            name: 'agent',
            run_type: 'chain',
            end_time: at('12:00:05'),
            inputs: { question: 'What is 2 + 2?' },
            outputs: { answer: '4' },
            extra: { metadata: { thread_id: 'th-1', user: 'ann' } },
            tags: ['prod'],
          },
          {
            ...child(id.a1, id.a, '12:00:01', '12:00:00'),
            session_id: P,
            name: 'chat',
            run_type: 'llm',
            end_time: at('12:00:02'),
            inputs: { messages: ['hi'] },
            outputs: { text: 'x'.repeat(600), ...usage(10, 5) },
            events: [{ name: 'new_token', time: at('12:00:01.5') }],
          },
          { ...child(id.a2, id.a, '12:00:03', '12:00:00'), session_id: P, name: 'search', run_type: 'tool', end_time: at('12:00:04'), error: 'boom' },
          { ...root(id.b, '12:01:00'), session_id: P, name: 'agent', run_type: 'chain', end_time: at('12:01:02') },
          { ...child(id.b1, id.b, '12:01:01', '12:01:00'), session_id: P, name: 'chat', run_type: 'llm', outputs: usage(3, 2) },
          { ...root(id.c, '12:02:00'), session_id: P2, name: 'other', run_type: 'chain' },
        ],
      });
      const feedback = [{ id: randomUUID(), run_id: id.a1, trace_id: id.a, key: 'correctness', score: 1, value: null, comment: null, extra: null }];
      await ingest.ingest(tenantId, { ...batch, feedback, attachments: [{ runId: id.a, name: 'photo', contentType: 'image/png', data: PNG }] });
      // Another workspace's run in a project of the same id: never seen.
      await ingest.ingest(randomUUID(), batchFromJson({ post: [{ ...root(randomUUID(), '12:00:30'), session_id: P, name: 'theirs', run_type: 'chain' }] }));
    });
    afterAll(async () => {
      await db?.close();
      await drop?.();
    });
    beforeEach(() => {
      now = Date.parse(at('13:00:00'));
    });

    describe('runs.query', () => {
      it('lists the runs of the projects in the window, newest first, with only their id unless more is selected', async () => {
        const page = await runs({});
        expect(page).toEqual({ items: ['b1', 'b', 'a2', 'a1', 'a'].map((k) => ({ id: id[k as keyof typeof id] })), next_cursor: null });
        expect(await ids({ project_ids: [P, P2] })).toEqual(['c', 'b1', 'b', 'a2', 'a1', 'a']);
      });

      it('shows the selected fields in the SDK shape', async () => {
        const selects: RunSelectField[] = [
          'NAME', 'RUN_TYPE', 'STATUS', 'START_TIME', 'END_TIME', 'LATENCY_SECONDS', 'FIRST_TOKEN_TIME', 'ERROR', 'EXTRA', 'METADATA',
          'INPUTS', 'INPUTS_PREVIEW', 'OUTPUTS_PREVIEW', 'PARENT_RUN_IDS', 'PROJECT_ID', 'TRACE_ID', 'THREAD_ID', 'DOTTED_ORDER',
          'IS_ROOT', 'TOTAL_TOKENS', 'PROMPT_TOKENS', 'COMPLETION_TOKENS', 'TOTAL_COST', 'TAGS', 'IS_IN_DATASET', 'FEEDBACK_STATS',
          'SHARE_URL', 'APP_PATH',
        ];
        const { items } = await runs({ ids: [id.a1, id.a], selects });
        const [a1, a] = items;
        expect(a1).toEqual({
          id: id.a1,
          name: 'chat',
          run_type: 'LLM',
          status: 'SUCCESS',
          start_time: '2024-05-01T12:00:01.000000Z',
          end_time: '2024-05-01T12:00:02.000000Z',
          latency_seconds: 1,
          first_token_time: '2024-05-01T12:00:01.500000Z',
          error: null,
          extra: {},
          metadata: {},
          inputs: { messages: ['hi'] },
          inputs_preview: '{"messages":["hi"]}',
          outputs_preview: expect.stringMatching(/^\{"text":"x+…$/),
          parent_run_ids: [id.a],
          project_id: P,
          trace_id: id.a,
          thread_id: null,
          dotted_order: `${dotted('12:00:00', id.a)}.${dotted('12:00:01', id.a1)}`,
          is_root: false,
          total_tokens: 15,
          prompt_tokens: 10,
          completion_tokens: 5,
          total_cost: null,
          tags: [],
          is_in_dataset: false,
          feedback_stats: { correctness: expect.objectContaining({ n: 1, avg: 1 }) },
        });
        expect((a1['outputs_preview'] as string).length).toBe(500);
        expect(a).toMatchObject({ run_type: 'CHAIN', metadata: { thread_id: 'th-1', user: 'ann' }, thread_id: 'th-1', inputs_preview: 'What is 2 + 2?', is_root: true, tags: ['prod'] });
        // A run still open has no end, latency or outputs; an error shows as ERROR.
        const [b1] = (await runs({ ids: [id.b1], selects: ['END_TIME', 'LATENCY_SECONDS', 'OUTPUTS', 'STATUS'] })).items;
        expect(b1).toEqual({ id: id.b1, end_time: null, latency_seconds: null, outputs: { usage_metadata: expect.any(Object) }, status: 'PENDING' });
        expect((await runs({ ids: [id.a2], selects: ['STATUS', 'ERROR', 'ERROR_PREVIEW'] })).items[0]).toEqual({ id: id.a2, status: 'ERROR', error: 'boom', error_preview: 'boom' });
      });

      it("shows a run's own usage, or its subtree's with include_subtree_usage", async () => {
        const usage = async (include: boolean) =>
          (await runs({ ids: [id.a, id.a1], selects: ['TOTAL_TOKENS', 'PROMPT_TOKENS', 'FIRST_TOKEN_TIME'], include_subtree_usage: include })).items.map((r) => [
            r['total_tokens'],
            r['prompt_tokens'],
            r['first_token_time'],
          ]);
        expect(await usage(false)).toEqual([
          [15, 10, '2024-05-01T12:00:01.500000Z'],
          [0, 0, null],
        ]);
        expect(await usage(true)).toEqual([
          [15, 10, '2024-05-01T12:00:01.500000Z'],
          [15, 10, '2024-05-01T12:00:01.500000Z'],
        ]);
      });

      it('narrows by the body fields and the filter language', async () => {
        expect(await ids({ run_type: 'LLM' })).toEqual(['b1', 'a1']);
        expect(await ids({ is_root: true })).toEqual(['b', 'a']);
        expect(await ids({ has_error: true })).toEqual(['a2']);
        expect(await ids({ has_error: false, is_root: false })).toEqual(['b1', 'a1']);
        expect(await ids({ trace_id: id.b })).toEqual(['b1', 'b']);
        expect(await ids({ ids: [id.a, id.c] })).toEqual(['a']);
        expect(await ids({ filter: 'and(eq(run_type, "llm"), gt(total_tokens, 10))' })).toEqual(['a1']);
        expect(await ids({ trace_filter: 'has(tags, "prod")' })).toEqual(['a2', 'a1', 'a']);
        expect(await ids({ tree_filter: 'eq(name, "search")', is_root: true })).toEqual(['a']);
        expect(await ids({ min_start_time: at('12:00:01'), max_start_time: at('12:01:00') })).toEqual(['a2', 'a1']);
      });

      it('defaults to the day before now', async () => {
        now = Date.parse('2024-05-02T12:00:30Z');
        expect(await ids({ min_start_time: undefined })).toEqual(['b1', 'b']);
      });

      it('pages with the cursor until next_cursor is null', async () => {
        const seen: string[][] = [];
        let cursor: string | undefined;
        do {
          const page = await runs({ page_size: 2, cursor });
          seen.push(page.items.map((r) => label(r['id'] as string)));
          cursor = page.next_cursor ?? undefined;
        } while (cursor);
        expect(seen).toEqual([['b1', 'b'], ['a2', 'a1'], ['a']]);
        await expect(runs({ cursor: 'not-a-cursor' })).rejects.toThrow(InputError);
      });

      it('limits feedback conditions to the feedback modified in a window, which needs a feedback condition', async () => {
        const filter = 'eq(feedback_key, "correctness")';
        const iso = (ms: number) => new Date(ms).toISOString();
        expect(await ids({ filter, min_feedback_modified_at: iso(feedbackAt - 3_600_000) })).toEqual(['a1']);
        expect(await ids({ filter, min_feedback_modified_at: iso(feedbackAt + 3_600_000) })).toEqual([]);
        expect(await ids({ tree_filter: filter, max_feedback_modified_at: iso(feedbackAt + 3_600_000) })).toEqual(['a2', 'a1', 'a']);
        const missing = await runs({ filter: 'eq(name, "chat")', min_feedback_modified_at: iso(feedbackAt) }).catch((e: unknown) => e);
        expect(missing).toBeInstanceOf(ValidationError);
        expect((missing as ValidationError).issues[0]).toMatchObject({ loc: ['body', 'min_feedback_modified_at'], msg: expect.stringContaining('feedback condition') });
      });

      it('refuses what it cannot answer, saying why', async () => {
        await expect(runs({ project_ids: undefined })).rejects.toThrow(ValidationError);
        await expect(runs({ reference_dataset_id: randomUUID() })).rejects.toThrow(ValidationError);
        await expect(runs({ project_ids: undefined, reference_dataset_id: randomUUID() })).rejects.toThrow(NotFoundError);
        await expect(runs({ min_start_time: at('12:00:00'), max_start_time: at('11:00:00') })).rejects.toThrow(ValidationError);
        await expect(runs({ ai_search: 'runs where the user was upset' })).rejects.toThrow(NotImplementedError);
        const bad = await runs({ filter: 'eq(name' }).catch((e: unknown) => e);
        expect(bad).toBeInstanceOf(FilterSyntaxError);
        expect(bad).toMatchObject({ position: 7, message: expect.stringMatching(/^Invalid filter: Unexpected end of input at position 7/) });
        await expect(runs({ trace_filter: 'eq(nope, 1)' })).rejects.toThrow(/Invalid trace_filter/);
      });

      it('links the attachments of runs that have them', async () => {
        const { items } = await runs({ ids: [id.a, id.a1], selects: ['ATTACHMENTS'] });
        expect(items[0]).toEqual({ id: id.a1, attachments: {} });
        const url = (items[1]['attachments'] as Record<string, string>)['photo'];
        expect(url).toMatch(/^https:\/\/smith\.example\.com\/api\/v1\/public\/download\?jwt=[\w-]+\.[\w-]+\.[\w-]+$/);
        const token = new URL(url).searchParams.get('jwt') as string;
        expect(links.verify(token)).toEqual({ tenantId, runId: id.a, name: 'photo' });
        expect(await downloadAttachment({ attachments, links }, token)).toEqual({ name: 'photo', contentType: 'image/png', data: PNG });
      });
    });

    describe('runs.retrieve', () => {
      it('reads one run of the project, with its selected fields', async () => {
        expect(await retrieveRunV2(deps, caller, id.a2, { project_id: P, selects: ['NAME', 'RUN_TYPE'] })).toEqual({ id: id.a2, name: 'search', run_type: 'TOOL' });
        expect(await retrieveRunV2(deps, caller, id.a2, { project_id: P })).toEqual({ id: id.a2 });
        await expect(retrieveRunV2(deps, caller, id.a2, { project_id: P2 })).rejects.toThrow(NotFoundError);
        await expect(retrieveRunV2(deps, { ...caller, tenantId: randomUUID() }, id.a2, { project_id: P })).rejects.toThrow(NotFoundError);
        await expect(retrieveRunV2(deps, caller, randomUUID(), { project_id: P })).rejects.toThrow(NotFoundError);
      });
    });

    describe('traces.query', () => {
      it('lists root runs newest first, with the trace aggregates that were selected', async () => {
        const { items, next_cursor } = await traces({ selects: ['NAME', 'TOTAL_TOKENS', 'TOTAL_COST', 'FIRST_TOKEN_TIME'] });
        expect(next_cursor).toBeNull();
        expect(items).toEqual([
          { root_run: { id: id.b, name: 'agent' }, trace_aggregates: { total_tokens: 5, total_cost: null, first_token_time: null }, query_metadata: null },
          {
            root_run: { id: id.a, name: 'agent' },
            trace_aggregates: { total_tokens: 15, total_cost: null, first_token_time: '2024-05-01T12:00:01.500000Z' },
            query_metadata: null,
          },
        ]);
        expect((await traces({})).items).toEqual([
          { root_run: { id: id.b }, query_metadata: null },
          { root_run: { id: id.a }, query_metadata: null },
        ]);
      });

      it('narrows by trace ids, the root (trace_filter) and any run of the tree (tree_filter), and pages', async () => {
        const roots = async (body: Partial<z.input<typeof tracesQueryV2Schema>>) => (await traces(body)).items.map((t) => label(t.root_run['id'] as string));
        expect(await roots({ trace_ids: [id.a] })).toEqual(['a']);
        expect(await roots({ trace_filter: 'has(tags, "prod")' })).toEqual(['a']);
        expect(await roots({ tree_filter: 'eq(run_type, "tool")' })).toEqual(['a']);
        expect(await roots({ max_start_time: at('12:01:00') })).toEqual(['a']);
        const first = await traces({ page_size: 1 });
        expect(first.items.map((t) => label(t.root_run['id'] as string))).toEqual(['b']);
        const second = await traces({ page_size: 1, cursor: first.next_cursor ?? undefined });
        expect([second.items.map((t) => label(t.root_run['id'] as string)), second.next_cursor]).toEqual([['a'], null]);
        await expect(traces({ ai_search: 'x' })).rejects.toThrow(NotImplementedError);
      });
    });

    describe('traces.listRuns', () => {
      const list = async (traceId: string, params: Parameters<typeof listTraceRunsV2>[3]) =>
        (await listTraceRunsV2(deps, caller, traceId, params)).items.map((r) => label(r['id'] as string));

      it('lists every run of the trace oldest first, filtered and windowed (bounds included)', async () => {
        expect(await list(id.a, { project_id: P })).toEqual(['a', 'a1', 'a2']);
        expect(await list(id.a, { project_id: P, filter: 'eq(run_type, "llm")' })).toEqual(['a1']);
        expect(await list(id.a, { project_id: P, min_start_time: at('12:00:01'), max_start_time: at('12:00:03') })).toEqual(['a1', 'a2']);
        expect(await list(id.a, { project_id: P2 })).toEqual([]);
        const { items } = await listTraceRunsV2(deps, caller, id.a, { project_id: P, selects: ['NAME', 'ATTACHMENTS'] });
        expect(items[0]).toEqual({ id: id.a, name: 'agent', attachments: { photo: expect.stringContaining('/api/v1/public/download?jwt=') } });
        await expect(list(id.a, { project_id: P, min_start_time: at('12:00:01') })).rejects.toThrow(ValidationError);
      });
    });
  });
}
