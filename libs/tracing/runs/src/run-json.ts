import type { RunRow } from './run-row';

const num = (value: string) => Number(value);

/** A run in the LangSmith API shape (`GET /runs/{id}`, `POST /runs/query`). */
export function runJson(row: RunRow) {
  return {
    id: row.id,
    name: row.name,
    run_type: row.run_type,
    start_time: row.start_time,
    end_time: row.end_time,
    status: row.status,
    error: row.error,
    inputs: row.inputs ?? {},
    outputs: row.outputs,
    extra: row.extra ?? {},
    events: row.events ?? [],
    serialized: row.serialized,
    tags: row.tags ?? [],
    session_id: row.session_id,
    trace_id: row.trace_id,
    dotted_order: row.dotted_order,
    parent_run_id: row.parent_run_id,
    parent_run_ids: row.parent_run_ids ?? [],
    is_root: row.is_root,
    reference_example_id: row.reference_example_id,
    feedback_stats: row.feedback_stats,
    first_token_time: row.first_token_time,
    trace_tier: row.trace_tier,
    prompt_tokens: num(row.prompt_tokens),
    completion_tokens: num(row.completion_tokens),
    total_tokens: num(row.total_tokens),
    prompt_cost: row.prompt_cost,
    completion_cost: row.completion_cost,
    total_cost: row.total_cost,
  };
}

export type RunJson = ReturnType<typeof runJson>;
