import { randomUUID } from 'node:crypto';
import { NotFoundError } from '@platform/errors';
import { openTracingDatabase, prismaIngestSql, type TracingDatabase } from '@platform/tracing-data-access';
import { batchFromJson, updateFromJson, type IngestBatch } from './ingest/ingest-batch';
import { TestProjects, segment, traceOf } from './ingest/ingest-fixtures.testing';
import { IngestRuns } from './ingest/ingest-runs.usecase';
import { RunsRepository } from './runs.repository';

let db: TracingDatabase;
let repository: RunsRepository;
let projects: TestProjects;
let ingest: IngestRuns;

beforeAll(async () => {
  db = await openTracingDatabase({ dataDir: 'memory://' });
  await db.migrate();
  repository = new RunsRepository(prismaIngestSql(db.prisma));
  projects = new TestProjects();
  ingest = new IngestRuns(projects, repository);
});
afterAll(() => db?.close());

const send = (tenantId: string, body: { post?: unknown[]; patch?: unknown[] }) => ingest.ingest(tenantId, batchFromJson(body));
const tokens = async (tenantId: string, id: string) => {
  const run = await repository.findRun(tenantId, id);
  return run && [Number(run.prompt_tokens), Number(run.completion_tokens), Number(run.total_tokens), run.total_cost && Number(run.total_cost)];
};

/** A seeded shuffle, so a failure names a reproducible order. */
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

describe('RunsRepository (in-memory PGlite)', () => {
  it('merges a create and an update sent in either order into one run', async () => {
    const tenant = randomUUID();
    const { runs } = traceOf(['root', null]);
    const root = runs.get('root')!;
    await send(tenant, { patch: [{ ...root, outputs: { answer: 42 }, end_time: '2024-05-01T12:00:01.000002Z', name: 'renamed' }] });
    // An update alone is not a run yet.
    expect(await repository.findRun(tenant, root.id)).toBeNull();
    await send(tenant, { post: [{ ...root, name: 'agent', run_type: 'chain', inputs: { q: 'hi' }, start_time: '2024-05-01T12:00:00.000001Z', session_name: 'p1' }] });
    const run = await repository.findRun(tenant, root.id);
    expect(run).toMatchObject({
      name: 'renamed',
      run_type: 'chain',
      inputs: { q: 'hi' },
      outputs: { answer: 42 },
      status: 'success',
      start_time: '2024-05-01T12:00:00.000001Z',
      end_time: '2024-05-01T12:00:01.000002Z',
      trace_id: root.id,
      parent_run_ids: [],
      is_root: true,
      session_id: projects.byName.get('p1'),
    });
  });

  it('ignores a duplicate create, and lets an update override what it sends', async () => {
    const tenant = randomUUID();
    const { runs } = traceOf(['root', null]);
    const root = runs.get('root')!;
    await send(tenant, { post: [{ ...root, name: 'first', inputs: { a: 1 } }] });
    await send(tenant, { post: [{ ...root, name: 'second', inputs: { a: 2 }, tags: ['late'] }] });
    expect(await repository.findRun(tenant, root.id)).toMatchObject({ name: 'first', inputs: { a: 1 }, tags: ['late'], status: 'pending' });
    await send(tenant, { patch: [{ ...root, name: 'third', error: 'boom', end_time: 1714564801000 }] });
    expect(await repository.findRun(tenant, root.id)).toMatchObject({ name: 'third', error: 'boom', status: 'error', inputs: { a: 1 } });
  });

  it('puts runs without a project in "default", and creates named projects on first use', async () => {
    const tenant = randomUUID();
    const { runs } = traceOf(['a', null]);
    await send(tenant, { post: [{ ...runs.get('a')!, name: 'a' }] });
    expect((await repository.findRun(tenant, runs.get('a')!.id))?.session_id).toBe(projects.byName.get('default'));
    await expect(send(tenant, { post: [{ id: randomUUID(), session_id: randomUUID() }] })).rejects.toThrow(NotFoundError);
  });

  it('answers 404 to an update of an unknown run when asked to', async () => {
    const tenant = randomUUID();
    const id = randomUUID();
    await expect(ingest.ingest(tenant, updateFromJson(id, { end_time: 1714564801000 }), { mustExist: [id] })).rejects.toThrow(NotFoundError);
    expect(await db.prisma.run.count({ where: { tenantId: tenant } })).toBe(0);
  });

  it('keeps runs apart by workspace', async () => {
    const [mine, theirs] = [randomUUID(), randomUUID()];
    const { runs } = traceOf(['a', null]);
    await send(mine, { post: [{ ...runs.get('a')!, name: 'mine' }] });
    await send(theirs, { patch: [{ ...runs.get('a')!, name: 'theirs' }] });
    expect(await repository.findRun(mine, runs.get('a')!.id)).toMatchObject({ name: 'mine' });
    expect(await repository.findRun(theirs, runs.get('a')!.id)).toBeNull();
  });

  describe('rolled-up tokens and costs', () => {
    const shape: [string, string | null][] = [
      ['root', null],
      ['chain', 'root'],
      ['llm1', 'chain'],
      ['llm2', 'root'],
    ];

    /** Creates and updates of the trace; llm2's update does not say its run type, so its create decides. */
    function operations(runs: ReturnType<typeof traceOf>['runs']) {
      const usage = (input: number, output: number) => ({ usage_metadata: { input_tokens: input, output_tokens: output, total_tokens: input + output } });
      const r = (name: string) => runs.get(name)!;
      return [
        { kind: 'post' as const, run: { ...r('root'), name: 'root', run_type: 'chain', inputs: { q: 1 } } },
        { kind: 'post' as const, run: { ...r('chain'), name: 'chain', run_type: 'chain' } },
        { kind: 'post' as const, run: { ...r('llm1'), name: 'llm1', run_type: 'llm', prompt_cost: 0.01, completion_cost: 0.02 } },
        { kind: 'post' as const, run: { ...r('llm2'), name: 'llm2', run_type: 'llm' } },
        { kind: 'patch' as const, run: { ...r('root'), run_type: 'chain', outputs: { a: 1 }, end_time: 1714564802000 } },
        { kind: 'patch' as const, run: { ...r('chain'), run_type: 'chain', outputs: usage(1000, 1000), end_time: 1714564802000 } },
        { kind: 'patch' as const, run: { ...r('llm1'), run_type: 'llm', outputs: usage(10, 5), end_time: 1714564802000 } },
        { kind: 'patch' as const, run: { ...r('llm2'), outputs: usage(3, 2), end_time: 1714564802000 } },
      ];
    }

    async function expectRolledUp(tenant: string, runs: ReturnType<typeof traceOf>['runs'], order: string) {
      const t = (name: string) => tokens(tenant, runs.get(name)!.id);
      // The chain's outputs carry usage_metadata, but only LLM runs count.
      expect({ order, llm1: await t('llm1'), llm2: await t('llm2'), chain: await t('chain'), root: await t('root') }).toEqual({
        order,
        llm1: [10, 5, 15, 0.03],
        llm2: [3, 2, 5, null],
        chain: [10, 5, 15, 0.03],
        root: [13, 7, 20, 0.03],
      });
    }

    it('are own + all descendants whatever order and batches the creates and updates arrive in', async () => {
      for (let seed = 1; seed <= 24; seed++) {
        const tenant = randomUUID();
        const { runs } = traceOf(...shape);
        const ops = shuffled(operations(runs), seed);
        // Split the shuffled operations into batches of 1 to 3.
        const batches: (typeof ops)[] = [];
        for (let i = 0; i < ops.length; ) {
          const size = 1 + ((seed + i) % 3);
          batches.push(ops.slice(i, i + size));
          i += size;
        }
        for (const batch of batches) {
          await send(tenant, { post: batch.filter((o) => o.kind === 'post').map((o) => o.run), patch: batch.filter((o) => o.kind === 'patch').map((o) => o.run) });
        }
        const names = new Map([...runs].map(([name, run]) => [run.id, name]));
        await expectRolledUp(tenant, runs, ops.map((o) => `${o.kind}:${names.get(o.run.id)}`).join(' '));
      }
    });

    it('are right when the same update is sent twice (SDK retries)', async () => {
      const tenant = randomUUID();
      const { runs } = traceOf(...shape);
      const ops = operations(runs);
      for (const op of [...ops, ...ops]) await send(tenant, { [op.kind]: [op.run] });
      await expectRolledUp(tenant, runs, 'twice');
    });

    it('place a run sent without dotted order under its parent (legacy clients)', async () => {
      const tenant = randomUUID();
      const rootId = randomUUID();
      const childId = randomUUID();
      await send(tenant, { post: [{ id: rootId, name: 'root', run_type: 'chain', start_time: '2024-05-01T12:00:00Z' }] });
      await send(tenant, {
        post: [
          {
            id: childId,
            parent_run_id: rootId,
            name: 'llm',
            run_type: 'llm',
            start_time: '2024-05-01T12:00:01Z',
            outputs: { llm_output: { token_usage: { prompt_tokens: 4, completion_tokens: 1, total_tokens: 5 } } },
          },
        ],
      });
      expect(await repository.findRun(tenant, childId)).toMatchObject({
        trace_id: rootId,
        parent_run_ids: [rootId],
        dotted_order: `${segment(rootId)}.20240501T120001000000Z${childId}`,
        is_root: false,
      });
      expect(await tokens(tenant, rootId)).toEqual([4, 1, 5, null]);
    });
  });

  it('stores feedback and aggregates it into feedback_stats, also for feedback sent before its run', async () => {
    const tenant = randomUUID();
    const { runs } = traceOf(['root', null]);
    const root = runs.get('root')!;
    const feedback = (key: string, score: number | null, value?: unknown): IngestBatch['feedback'][number] => ({
      id: randomUUID(),
      run_id: root.id,
      trace_id: root.id,
      key,
      score,
      value: value ?? null,
      comment: null,
      extra: null,
    });
    await ingest.ingest(tenant, { operations: [], feedback: [feedback('correctness', 1), feedback('correctness', 0)], attachments: [] });
    await send(tenant, { post: [{ ...root, name: 'r' }] });
    expect((await repository.findRun(tenant, root.id))?.feedback_stats).toEqual({
      correctness: { n: 2, avg: 0.5, stdev: 0.5, errors: 0, values: {} },
    });
    await ingest.ingest(tenant, { operations: [], feedback: [feedback('vibe', null, 'good'), feedback('vibe', null, 'good')], attachments: [] });
    expect((await repository.findRun(tenant, root.id))?.feedback_stats).toMatchObject({
      correctness: { n: 2 },
      vibe: { n: 2, avg: null, values: { good: 2 } },
    });
    expect(await db.prisma.feedback.count({ where: { tenantId: tenant } })).toBe(4);
  });

  it('stores first token time, trace tier and times with microseconds', async () => {
    const tenant = randomUUID();
    const { runs } = traceOf(['root', null]);
    const events = [{ name: 'new_token', time: '2024-05-01T12:00:00.250001Z', kwargs: { token: 'a' } }];
    await send(tenant, { post: [{ ...runs.get('root')!, trace_tier: 'shortlived', events, start_time: '2024-05-01T12:00:00.000001+00:00' }] });
    expect(await repository.findRun(tenant, runs.get('root')!.id)).toMatchObject({
      first_token_time: '2024-05-01T12:00:00.250001Z',
      trace_tier: 'shortlived',
      start_time: '2024-05-01T12:00:00.000001Z',
      start_time_us: '1714564800000001',
    });
  });

  it('stores text Postgres cannot hold as sent otherwise (NUL characters)', async () => {
    const tenant = randomUUID();
    const { runs } = traceOf(['root', null]);
    await send(tenant, { post: [{ ...runs.get('root')!, name: 'a\u0000b', inputs: { 'k\u0000': 'v\u0000' } }] });
    expect(await repository.findRun(tenant, runs.get('root')!.id)).toMatchObject({ name: 'ab', inputs: { k: 'v' } });
  });
});
