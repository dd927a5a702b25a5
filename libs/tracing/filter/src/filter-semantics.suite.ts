import type { TracingDatabase } from '@platform/tracing-data-access';
import { compileFilter } from './compile-filter';
import { EXAMPLE, RUNS, SESSION_1, TENANT, insertFixtures, type RunLabel } from './filter-semantics.testing';

const LABELS = new Map(Object.entries(RUNS).map(([label, id]) => [id, label]));

/**
 * The filter semantics proof: compiled filters run against the fixtures, checking which runs match. Shared by the
 * PGlite spec and the Postgres integration spec; `open` gives a migrated, empty tracing database.
 */
export function describeFilterSemantics(name: string, open: () => Promise<{ db: TracingDatabase; drop: () => Promise<void> }>): void {
  describe(name, () => {
    let db: TracingDatabase;
    let drop: () => Promise<void>;

    beforeAll(async () => {
      ({ db, drop } = await open());
      await insertFixtures((sql, ...params) => db.prisma.$executeRawUnsafe(sql, ...params));
    });
    afterAll(async () => {
      await db?.close();
      await drop?.();
    });

    /** Labels of the runs the filter matches, sorted; the filter follows a caller parameter, as in real queries. */
    async function matching(filter: string): Promise<string[]> {
      const { sql, params } = compileFilter(filter, { alias: 'r', firstParam: 2 });
      const rows = await db.prisma.$queryRawUnsafe<{ id: string }[]>(
        `SELECT r.id::text AS id FROM runs r WHERE r.tenant_id = $1::uuid AND (${sql})`,
        TENANT,
        ...params,
      );
      return rows.map((row) => LABELS.get(row.id) ?? row.id).sort();
    }

    const all: RunLabel[] = ['agent', 'broken', 'claude', 'llm', 'nameless', 'tool'];
    const but = (...labels: RunLabel[]) => all.filter((l) => !labels.includes(l));

    it.each<[string, RunLabel[]]>([
      // ids and uuid fields
      [`eq(id, "${RUNS.llm}")`, ['llm']],
      [`neq(id, "${RUNS.llm}")`, but('llm')],
      [`in(id, ["${RUNS.llm}", "${RUNS.tool}"])`, ['llm', 'tool']],
      [`eq(trace_id, "${RUNS.agent}")`, ['agent', 'llm', 'tool']],
      [`eq(session_id, "${SESSION_1}")`, ['agent', 'llm', 'tool']],
      ['eq(session_id, null)', ['nameless']],
      [`eq(parent_run_id, "${RUNS.agent}")`, ['llm', 'tool']],
      ['eq(parent_run_id, null)', ['agent', 'broken', 'claude', 'nameless']],
      [`eq(reference_example_id, "${EXAMPLE}")`, ['agent']],
      // text fields
      ['eq(name, "ChatOpenAI")', ['llm']],
      ['neq(name, "ChatOpenAI")', but('llm')],
      ['eq(name, null)', ['nameless']],
      ['like(name, "Chat%")', ['claude', 'llm']],
      ['like(name, "chat%")', []],
      ['in(run_type, ["llm", "tool"])', ['claude', 'llm', 'tool']],
      ['eq(run_type, "chain")', ['agent', 'broken']],
      ['eq(status, "error")', ['broken']],
      ['neq(status, "success")', ['broken', 'nameless']],
      ['eq(error, null)', but('broken')],
      ['neq(error, null)', ['broken']],
      ['like(error, "%boom 100\\\\%")', ['broken']],
      ['eq(trace_tier, "longlived")', ['broken']],
      ['eq(thread_id, "abc")', ['agent', 'llm']],
      ['in(thread_id, ["xyz", "c1"])', ['claude', 'tool']],
      // times and latency
      ['gt(start_time, "2024-05-01T10:00:00Z")', ['broken', 'claude', 'llm', 'nameless', 'tool']],
      ['gte(start_time, "2024-05-01T10:00:00Z")', all],
      ['lt(start_time, "2024-05-01T13:00:00+02:00")', ['agent', 'llm', 'tool']],
      ['lte(start_time, "2024-05-01 10:00:01")', ['agent', 'llm']],
      ['eq(start_time, "2024-05-01T11:00:00.000000Z")', ['broken']],
      ['lt(end_time, "2024-05-01T10:00:04Z")', ['llm']],
      ['eq(end_time, null)', ['broken', 'nameless']],
      ['gt(first_token_time, "2024-05-01")', ['llm']],
      ['gt(latency, 10)', ['agent', 'claude']],
      ['gt(latency, "1m")', ['claude']],
      ['lt(latency, "200ms")', ['tool']],
      ['eq(latency, 2)', ['llm']],
      // tokens and costs
      ['gt(total_tokens, 5000)', ['claude']],
      ['gte(total_tokens, 100)', ['agent', 'claude', 'llm']],
      ['eq(total_tokens, 0)', ['broken', 'nameless', 'tool']],
      ['lt(prompt_tokens, 100)', ['agent', 'broken', 'llm', 'nameless', 'tool']],
      ['gt(completion_tokens, 40)', ['claude']],
      ['gt(total_cost, 1)', ['claude']],
      ['eq(total_cost, null)', ['broken', 'nameless', 'tool']],
      ['lte(prompt_cost, 0.3)', ['agent', 'llm']],
      ['gte(completion_cost, 0.5)', ['claude']],
      // tags, is_root, metadata
      ['has(tags, "prod")', ['llm', 'tool']],
      ['and(or(has(tags, "experimental"), has(tags, "beta")), gt(latency, 2))', ['agent', 'claude']],
      ['eq(is_root, true)', ['agent', 'broken', 'claude', 'nameless']],
      ['neq(is_root, true)', ['llm', 'tool']],
      [`has(metadata, '{"model": "gpt-4"}')`, ['llm']],
      [`has(metadata, '{"temperature": 0.5, "thread_id": "abc"}')`, ['llm']],
      ['exists(metadata, "model")', ['llm', 'tool']],
      // key/value fields on their own
      ['eq(metadata_key, "user")', ['agent']],
      ['eq(metadata_value, "abc")', ['agent', 'llm']],
      ['eq(metadata_value, 0.5)', ['llm']],
      ['like(metadata_key, "conv%")', ['claude']],
      ['eq(input_key, "question")', ['llm']],
      ['eq(input_value, "weather in Paris")', ['tool']],
      ['eq(input_value, 1)', ['claude']],
      ['eq(feedback_key, "Correctness")', ['agent', 'llm']],
      ['eq(feedback_score, 0.5)', ['claude']],
      ['in(feedback_score, [0, 0.5])', ['claude', 'llm']],
      ['lt(feedback_score, 1)', ['claude', 'llm']],
      // search
      ['search("hello world")', ['llm']],
      ['search("PARIS")', ['tool']],
      ['search("25%")', ['tool']],
      ['search("chat")', ['claude', 'llm']],
      ['search("boom")', ['broken']],
      ['search("role")', []],
      // boolean logic
      ['not(eq(run_type, "llm"))', ['agent', 'broken', 'nameless', 'tool']],
      ['not(eq(name, "Other"))', but('broken')],
      ['not(gt(latency, 10))', ['broken', 'llm', 'nameless', 'tool']],
      ['or(eq(status, "error"), and(eq(run_type, "llm"), gt(total_tokens, 1000)))', ['broken', 'claude']],
      ['and(eq(run_type, "chain"), not(or(has(tags, "experimental"), eq(trace_tier, "shortlived"))))', ['broken']],
      ['in(name, [])', []],
      ['not(in(name, []))', all],
    ])('%s', async (filter, expected) => {
      expect(await matching(filter)).toEqual([...expected].sort());
    });

    describe('key/value pairing', () => {
      it.each<[string, RunLabel[]]>([
        // one entry holds both: thread_id=abc is on agent and llm; model=none only on tool
        ['and(eq(metadata_key, "thread_id"), eq(metadata_value, "abc"))', ['agent', 'llm']],
        ['and(eq(metadata_key, "model"), eq(metadata_value, "abc"))', []],
        ['and(eq(metadata_value, "none"), eq(metadata_key, "model"))', ['tool']],
        ['and(in(metadata_key, ["session_id", "thread_id"]), eq(metadata_value, "abc"))', ['agent', 'llm']],
        ['and(in(metadata_key, ["session_id", "thread_id"]), eq(metadata_value, "xyz"))', ['tool']],
        // claude has a=1 and b=2: a=2 is not an entry, though key a and value 2 both exist
        ['and(eq(metadata_key, "a"), eq(metadata_value, "2"))', []],
        ['and(eq(metadata_key, "b"), eq(metadata_value, "2"))', ['claude']],
        // in separate and()s (or under or/not) they do not bind: key a exists, and some value is 2
        ['and(and(eq(metadata_key, "a")), and(eq(metadata_value, "2")))', ['claude']],
        ['and(eq(metadata_key, "a"), or(eq(metadata_value, "2")))', ['claude']],
        // two pairs of one family in one and(): each key binds with the value that follows it
        ['and(eq(metadata_key, "a"), eq(metadata_value, "1"), eq(metadata_key, "b"), eq(metadata_value, "2"))', ['claude']],
        ['and(eq(metadata_key, "a"), eq(metadata_value, "2"), eq(metadata_key, "b"), eq(metadata_value, "1"))', []],
        ['and(eq(metadata_key, "thread_id"), eq(metadata_key, "user"))', ['agent']],
        // inputs: claude has a="2", b=1
        ['and(eq(input_key, "a"), eq(input_value, "2"))', ['claude']],
        ['and(eq(input_key, "b"), eq(input_value, "2"))', []],
        ['and(eq(input_key, "query"), like(input_value, "%Paris"))', ['tool']],
        // feedback: llm has Correctness=0 and user_score=1; agent Correctness=1; the other tenant's Correctness=0 on broken
        ['and(eq(feedback_key, "Correctness"), eq(feedback_score, 0.0))', ['llm']],
        ['and(eq(feedback_key, "Correctness"), eq(feedback_score, 1))', ['agent']],
        ['and(eq(feedback_key, "user_score"), eq(feedback_score, 0))', []],
        ['and(eq(feedback_key, "user_score"), gte(feedback_score, 0.5))', ['claude', 'llm']],
        ['and(and(eq(feedback_key, "user_score")), and(eq(feedback_score, 0)))', ['llm']],
        // different families in one and(): each binds within itself
        ['and(eq(metadata_key, "model"), eq(feedback_key, "Correctness"), eq(metadata_value, "gpt-4"), eq(feedback_score, 0))', ['llm']],
        ['and(eq(metadata_key, "model"), eq(feedback_key, "Correctness"), eq(metadata_value, "gpt-4"), eq(feedback_score, 1))', []],
        // the compatibility notes' example
        [
          'and(gt(start_time, "2023-07-15T12:34:56Z"), or(neq(error, null), and(eq(feedback_key, "Correctness"), eq(feedback_score, 0.0))))',
          ['broken', 'llm'],
        ],
        ['not(and(eq(metadata_key, "model"), eq(metadata_value, "gpt-4")))', but('llm')],
      ])('%s', async (filter, expected) => {
        expect(await matching(filter)).toEqual([...expected].sort());
      });
    });
  });
}
