import { randomUUID } from 'node:crypto';
import { parseAt, type Loc } from './run-operation';
import { feedbackPayloadSchema } from './run-payload.schema';

/** Feedback on a run as stored in `feedback` (`feedback.<id>` multipart parts). */
export interface FeedbackRecord {
  id: string;
  run_id: string;
  trace_id: string | null;
  key: string;
  score: number | null;
  value: unknown;
  comment: string | null;
  extra: Record<string, unknown> | null;
}

/** Validates one feedback payload; `idHint` is the id its part is named by. */
export function toFeedbackRecord(value: unknown, loc: Loc, idHint?: string): FeedbackRecord {
  const f = parseAt(feedbackPayloadSchema, value, loc);
  const extra: Record<string, unknown> = {};
  for (const key of ['correction', 'feedback_source', 'feedback_config', 'feedback_group_id', 'comparative_experiment_id'] as const) {
    if (f[key] !== undefined && f[key] !== null) extra[key] = f[key];
  }
  return {
    id: f.id ?? idHint ?? randomUUID(),
    run_id: f.run_id,
    trace_id: f.trace_id ?? null,
    key: f.key,
    score: typeof f.score === 'boolean' ? Number(f.score) : (f.score ?? null),
    value: f.value ?? null,
    comment: f.comment ?? null,
    extra: Object.keys(extra).length ? extra : null,
  };
}

const ids = (param: string) => `(SELECT (jsonb_array_elements_text(${param}::jsonb))::uuid)`;

/** Stores feedback ($1 tenant, $2 JSON `FeedbackRecord` rows with distinct ids); a known id is replaced. */
export const UPSERT_FEEDBACK_SQL = `INSERT INTO feedback (tenant_id, id, run_id, trace_id, key, score, value, comment, extra)
SELECT $1::uuid, f.id, f.run_id, f.trace_id, f.key, f.score, f.value, f.comment, f.extra
FROM jsonb_to_recordset($2::jsonb) AS f(id uuid, run_id uuid, trace_id uuid, key text, score float8, value jsonb, comment text, extra jsonb)
ON CONFLICT (tenant_id, id) DO UPDATE SET run_id = EXCLUDED.run_id, trace_id = EXCLUDED.trace_id, key = EXCLUDED.key,
  score = EXCLUDED.score, value = EXCLUDED.value, comment = EXCLUDED.comment, extra = EXCLUDED.extra, updated_at = now()`;

/**
 * `feedback_stats` per run from its stored feedback (`SELECT run_id, stats`), LangSmith's shape:
 * `{<key>: {n, avg, stdev, errors, values: {<categorical value>: count}}}`. `runIds` is a subquery of run ids;
 * $1 is the tenant.
 */
export const FEEDBACK_STATS_SELECT = (runIds: string) => `SELECT k.run_id, jsonb_object_agg(k.key, k.stats) AS stats
  FROM (
    SELECT g.run_id, g.key, jsonb_build_object(
      'n', sum(g.n),
      'avg', sum(g.score_sum) / NULLIF(sum(g.score_n), 0),
      'stdev', CASE WHEN sum(g.score_n) > 0
        THEN sqrt(greatest(sum(g.score_sq) / sum(g.score_n) - power(sum(g.score_sum) / sum(g.score_n), 2), 0)) END,
      'errors', 0,
      'values', COALESCE(jsonb_object_agg(g.val, g.n) FILTER (WHERE g.val IS NOT NULL), '{}'::jsonb)
    ) AS stats
    FROM (
      SELECT f.run_id, f.key, CASE WHEN jsonb_typeof(f.value) = 'string' THEN f.value #>> '{}' END AS val,
        count(*) AS n, sum(f.score) AS score_sum, count(f.score) AS score_n, sum(f.score * f.score) AS score_sq
      FROM feedback f
      WHERE f.tenant_id = $1::uuid AND f.run_id IN ${runIds}
      GROUP BY 1, 2, 3
    ) g
    GROUP BY g.run_id, g.key
  ) k
  GROUP BY k.run_id`;

/** Recomputes `feedback_stats` of runs from their feedback ($1 tenant, $2 JSON run ids); runs without any are untouched. */
export const FEEDBACK_STATS_SQL = `UPDATE runs r SET feedback_stats = s.stats
FROM (${FEEDBACK_STATS_SELECT(ids('$2'))}) s
WHERE r.tenant_id = $1::uuid AND r.id = s.run_id`;
