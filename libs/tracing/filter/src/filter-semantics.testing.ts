// Test data for filter-semantics.spec.ts: a handful of runs and feedback, inserted with plain SQL.
export const TENANT = '11111111-1111-4111-8111-111111111111';
export const OTHER_TENANT = '22222222-2222-4222-8222-222222222222';
export const SESSION_1 = '33333333-3333-4333-8333-333333333331';
export const SESSION_2 = '33333333-3333-4333-8333-333333333332';
export const EXAMPLE = '44444444-4444-4444-8444-444444444444';

const id = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;

/** Run ids by label; the labels are what the tests compare. */
export const RUNS = { llm: id(1), tool: id(2), agent: id(3), broken: id(4), claude: id(5), nameless: id(6) } as const;
export type RunLabel = keyof typeof RUNS;

interface RunFixture {
  label: RunLabel;
  trace: RunLabel;
  parent?: RunLabel;
  session?: string;
  name: string | null;
  runType: string | null;
  status: string;
  start: string;
  end?: string;
  firstToken?: string;
  error?: string;
  tokens?: [number, number, number];
  costs?: [string, string, string];
  tags: string[];
  extra?: unknown;
  inputs?: unknown;
  outputs?: unknown;
  tier?: string;
  example?: string;
}

const RUN_FIXTURES: RunFixture[] = [
  {
    label: 'agent', trace: 'agent', session: SESSION_1, name: 'AgentExecutor', runType: 'chain', status: 'success',
    start: '2024-05-01T10:00:00Z', end: '2024-05-01T10:00:15Z', tokens: [100, 60, 40], costs: ['0.5', '0.3', '0.2'],
    tags: ['experimental'], extra: { metadata: { thread_id: 'abc', user: 'u1' } }, inputs: { input: 'Hi' }, example: EXAMPLE,
  },
  {
    label: 'llm', trace: 'agent', parent: 'agent', session: SESSION_1, name: 'ChatOpenAI', runType: 'llm', status: 'success',
    start: '2024-05-01T10:00:01Z', end: '2024-05-01T10:00:03Z', firstToken: '2024-05-01T10:00:01.500Z', tokens: [100, 60, 40],
    costs: ['0.5', '0.3', '0.2'], tags: ['prod', 'beta'], extra: { metadata: { thread_id: 'abc', model: 'gpt-4', temperature: 0.5 } },
    inputs: { messages: [{ role: 'user', content: 'Hello World' }], question: 'what is up' }, outputs: { text: 'Bonjour' },
  },
  {
    label: 'tool', trace: 'agent', parent: 'agent', session: SESSION_1, name: 'search_tool', runType: 'tool', status: 'success',
    start: '2024-05-01T10:00:04Z', end: '2024-05-01T10:00:04.100Z', tags: ['prod'], extra: { metadata: { session_id: 'xyz', model: 'none' } },
    inputs: { query: 'weather in Paris' }, outputs: { result: 'sunny, 25% rain' },
  },
  {
    label: 'broken', trace: 'broken', session: SESSION_2, name: 'Other', runType: 'chain', status: 'error', start: '2024-05-01T11:00:00Z',
    error: 'ValueError: boom 100%', tags: [], extra: { metadata: ['not', 'an', 'object'] }, inputs: [1, 2], tier: 'longlived',
  },
  {
    label: 'claude', trace: 'claude', session: SESSION_2, name: 'ChatAnthropic', runType: 'llm', status: 'success',
    start: '2024-05-01T12:00:00Z', end: '2024-05-01T12:01:30Z', tokens: [6000, 5000, 1000], costs: ['2', '1.5', '0.5'], tags: ['beta'],
    extra: { metadata: { conversation_id: 'c1', a: '1', b: '2' } }, inputs: { a: '2', b: 1 }, outputs: { text: 'Hallo' },
  },
  { label: 'nameless', trace: 'nameless', name: null, runType: null, status: 'pending', start: '2024-05-01T13:00:00Z', tags: [] },
];

/** (tenant, run, key, score): the other tenant's feedback names a run id of ours and must never count. */
const FEEDBACK: [string, RunLabel, string, number | null][] = [
  [TENANT, 'llm', 'Correctness', 0],
  [TENANT, 'llm', 'user_score', 1],
  [TENANT, 'agent', 'Correctness', 1],
  [TENANT, 'claude', 'user_score', 0.5],
  [TENANT, 'tool', 'note', null],
  [OTHER_TENANT, 'broken', 'Correctness', 0],
];

const json = (v: unknown) => (v === undefined ? null : JSON.stringify(v));

/** Inserts the fixtures through `exec(sql, params)`. */
export async function insertFixtures(exec: (sql: string, ...params: unknown[]) => Promise<unknown>): Promise<void> {
  for (const run of RUN_FIXTURES) {
    const [total, prompt, completion] = run.tokens ?? [0, 0, 0];
    const [totalCost, promptCost, completionCost] = run.costs ?? [null, null, null];
    await exec(
      `INSERT INTO runs (tenant_id, id, session_id, trace_id, parent_run_id, parent_run_ids, is_root, name, run_type, status,
         start_time, end_time, first_token_time, error, tags, extra, inputs, outputs, trace_tier, reference_example_id,
         total_tokens, prompt_tokens, completion_tokens, total_cost, prompt_cost, completion_cost, has_create)
       VALUES ($1::uuid, $2::uuid, $3::uuid, $4::uuid, $5::uuid, $6::uuid[], $7::boolean, $8, $9, $10,
         $11::timestamptz, $12::timestamptz, $13::timestamptz, $14, $15::text[], $16::jsonb, $17::jsonb, $18::jsonb, $19, $20::uuid,
         $21::bigint, $22::bigint, $23::bigint, $24::numeric, $25::numeric, $26::numeric, true)`,
      TENANT, RUNS[run.label], run.session ?? null, RUNS[run.trace], run.parent ? RUNS[run.parent] : null,
      run.parent ? [RUNS[run.parent]] : [], !run.parent, run.name, run.runType, run.status,
      run.start, run.end ?? null, run.firstToken ?? null, run.error ?? null, run.tags, json(run.extra), json(run.inputs),
      json(run.outputs), run.tier ?? null, run.example ?? null, String(total), String(prompt), String(completion),
      totalCost, promptCost, completionCost,
    );
  }
  let n = 0;
  for (const [tenant, run, key, score] of FEEDBACK) {
    n += 1;
    await exec(
      `INSERT INTO feedback (tenant_id, id, run_id, key, score) VALUES ($1::uuid, $2::uuid, $3::uuid, $4, $5::float8)`,
      tenant, `55555555-5555-4555-8555-00000000000${n}`, RUNS[run], key, score === null ? null : String(score),
    );
  }
}
