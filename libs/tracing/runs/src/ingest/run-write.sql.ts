// SQL of batch ingestion. Every statement is set-based: a batch's runs travel as one JSON parameter read with
// `jsonb_to_recordset`, never a statement per run. The text holds fixed column names only; values are bound.
import { FEEDBACK_STATS_SELECT } from './feedback';
import { OVERRIDE_BITS } from './plan-writes';

const ids = (param: string) => `(SELECT (jsonb_array_elements_text(${param}::jsonb))::uuid)`;

/** Takes the batch's advisory locks ($1: JSON array of bigint keys, already in the global order). */
export const LOCK_SQL = `SELECT count(*)::int AS n FROM (
  SELECT pg_advisory_xact_lock(k::bigint) FROM jsonb_array_elements_text($1::jsonb) AS k OFFSET 0
) locked`;

const USAGE = ['prompt_tokens', 'completion_tokens', 'total_tokens'] as const;
const COSTS = ['prompt_cost', 'completion_cost', 'total_cost'] as const;
const ALL_USAGE = [...USAGE, ...COSTS];

const HAS_OWN_USAGE = `(d.own_total_tokens <> 0 OR d.own_prompt_tokens <> 0 OR d.own_completion_tokens <> 0
    OR d.own_prompt_cost IS NOT NULL OR d.own_completion_cost IS NOT NULL OR d.own_total_cost IS NOT NULL)`;

/**
 * What planning needs, in one round trip ($1 tenant, $2 JSON ids of the batch's runs and of parents that place
 * some, $3 JSON ids of the batch's traces): the stored runs; per run, its stored descendants' own usage summed
 * (found through their `parent_run_ids`, within the traces); per run, the stats of feedback stored before it.
 */
export const READ_STORED_SQL = `WITH ids AS (SELECT DISTINCT id FROM ${ids('$2')} AS i(id))
SELECT
  (SELECT COALESCE(jsonb_agg(jsonb_build_object(
      'id', r.id, 'trace_id', r.trace_id, 'parent_run_ids', to_jsonb(r.parent_run_ids), 'dotted_order', r.dotted_order,
      'run_type', r.run_type, 'has_outputs', r.outputs IS NOT NULL, 'has_extra', r.extra IS NOT NULL,
      'outputs', CASE WHEN r.run_type IS NULL THEN r.outputs END, 'extra', CASE WHEN r.run_type IS NULL THEN r.extra END,
      ${ALL_USAGE.map((c) => `'own_${c}', r.own_${c}`).join(', ')})), '[]'::jsonb)
    FROM runs r WHERE r.tenant_id = $1::uuid AND r.id IN (SELECT id FROM ids)) AS runs,
  (SELECT COALESCE(jsonb_agg(jsonb_build_object('id', s.id, ${ALL_USAGE.map((c) => `'${c}', s.${c}`).join(', ')})), '[]'::jsonb)
    FROM (
      SELECT anc.id, ${ALL_USAGE.map((c) => `sum(d.own_${c}) AS ${c}`).join(', ')}
      FROM runs d CROSS JOIN LATERAL unnest(d.parent_run_ids) AS anc(id)
      WHERE d.tenant_id = $1::uuid AND d.trace_id IN ${ids('$3')} AND ${HAS_OWN_USAGE} AND anc.id IN (SELECT id FROM ids)
      GROUP BY anc.id
    ) s) AS descendants,
  (SELECT COALESCE(jsonb_object_agg(s.run_id, s.stats), '{}'::jsonb)
    FROM (${FEEDBACK_STATS_SELECT('(SELECT id FROM ids)')}) s) AS feedback`;

const RECORD = `v(id uuid, ovr int, session_id uuid, trace_id uuid, parent_run_id uuid, parent_run_ids uuid[], dotted_order text,
  is_root boolean, name text, run_type text, status text, start_time timestamptz, end_time timestamptz,
  first_token_time timestamptz, inputs jsonb, outputs jsonb, error text, extra jsonb, events jsonb, serialized jsonb,
  tags text[], reference_example_id uuid, trace_tier text, own_prompt_tokens bigint, own_completion_tokens bigint,
  own_total_tokens bigint, own_prompt_cost numeric, own_completion_cost numeric, own_total_cost numeric, has_create boolean,
  totals jsonb, feedback_stats jsonb, delta_only boolean)`;

/**
 * Inserts runs not stored yet, with their rolled-up totals ($1 tenant, $2 JSON rows). A run inserted meanwhile by
 * another transaction is left alone and missing from RETURNING, so the caller retries with fresh state.
 */
export const INSERT_RUNS_SQL = `INSERT INTO runs (tenant_id, id, session_id, trace_id, parent_run_id, parent_run_ids, dotted_order,
  is_root, name, run_type, status, start_time, end_time, first_token_time, inputs, outputs, error, extra, events, serialized,
  tags, reference_example_id, trace_tier, feedback_stats, has_create, ${ALL_USAGE.map((c) => `own_${c}`).join(', ')},
  ${ALL_USAGE.join(', ')})
SELECT $1::uuid, v.id, v.session_id, v.trace_id, v.parent_run_id, v.parent_run_ids, v.dotted_order, COALESCE(v.is_root, false),
  v.name, v.run_type, v.status, v.start_time, v.end_time, v.first_token_time, v.inputs, v.outputs, v.error, v.extra, v.events,
  v.serialized, v.tags, v.reference_example_id, v.trace_tier, v.feedback_stats, v.has_create,
  ${ALL_USAGE.map((c) => `v.own_${c}`).join(', ')},
  ${USAGE.map((c) => `(v.totals->>'${c}')::bigint`).join(', ')}, ${COSTS.map((c) => `(v.totals->>'${c}')::numeric`).join(', ')}
FROM jsonb_to_recordset($2::jsonb) AS ${RECORD}
ON CONFLICT (tenant_id, id) DO NOTHING
RETURNING id::text AS id`;

/** A field after an update: what the update sent replaces, what a create sent only fills a NULL. */
const merged = (column: keyof typeof OVERRIDE_BITS) =>
  `CASE WHEN v.ovr & ${OVERRIDE_BITS[column]} <> 0 THEN v.${column} ELSE COALESCE(r.${column}, v.${column}) END`;

const MERGED_FIELDS = (Object.keys(OVERRIDE_BITS) as (keyof typeof OVERRIDE_BITS)[]).map((c) => `${c} = ${merged(c)}`);

// Totals move by the change of own usage (none for `delta_only` rows) plus what this batch's descendants add.
const ownChange = (c: string) => `CASE WHEN COALESCE(v.delta_only, false) THEN 0 ELSE COALESCE(v.own_${c}, 0) - COALESCE(r.own_${c}, 0) END`;
const costUntouched = (c: string) =>
  `(v.totals->>'${c}') IS NULL AND (COALESCE(v.delta_only, false) OR (v.own_${c} IS NULL AND r.own_${c} IS NULL))`;

/**
 * Updates stored runs ($1 tenant, $2 JSON rows). The place in the trace is set once; own usage is the planner's;
 * totals change as described above. `delta_only` rows (stored ancestors outside the batch) change totals only; one
 * not stored is not updated (the caller compares RETURNING with the runs it expected).
 */
export const UPDATE_RUNS_SQL = `UPDATE runs r SET
  ${MERGED_FIELDS.join(',\n  ')},
  trace_id = COALESCE(r.trace_id, v.trace_id),
  parent_run_id = COALESCE(r.parent_run_id, v.parent_run_id),
  parent_run_ids = COALESCE(r.parent_run_ids, v.parent_run_ids),
  dotted_order = COALESCE(r.dotted_order, v.dotted_order),
  is_root = CASE WHEN r.parent_run_ids IS NULL AND v.parent_run_ids IS NOT NULL THEN COALESCE(v.is_root, false) ELSE r.is_root END,
  status = CASE WHEN ${merged('error')} IS NOT NULL THEN 'error' WHEN ${merged('end_time')} IS NOT NULL THEN 'success' ELSE 'pending' END,
  first_token_time = LEAST(r.first_token_time, v.first_token_time),
  ${USAGE.map((c) => `${c} = r.${c} + ${ownChange(c)} + COALESCE((v.totals->>'${c}')::bigint, 0)`).join(',\n  ')},
  ${COSTS.map(
    (c) => `${c} = CASE WHEN ${costUntouched(c)} THEN r.${c}
    ELSE COALESCE(r.${c}, 0) + ${ownChange(c)} + COALESCE((v.totals->>'${c}')::numeric, 0) END`,
  ).join(',\n  ')},
  ${ALL_USAGE.map((c) => `own_${c} = CASE WHEN COALESCE(v.delta_only, false) THEN r.own_${c} ELSE v.own_${c} END`).join(',\n  ')},
  has_create = r.has_create OR v.has_create,
  updated_at = now()
FROM jsonb_to_recordset($2::jsonb) AS ${RECORD}
WHERE r.tenant_id = $1::uuid AND r.id = v.id
RETURNING r.id::text AS id`;
