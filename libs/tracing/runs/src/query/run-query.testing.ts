// Rows for the query tests, inserted with plain SQL (no ingestion code involved).

export interface RunFixture {
  tenantId: string;
  id: string;
  sessionId?: string | null;
  traceId?: string;
  parentRunId?: string | null;
  name?: string;
  runType?: string;
  startTime?: string | null;
  endTime?: string | null;
  error?: string | null;
  tags?: string[];
  inputs?: unknown;
  extra?: unknown;
  referenceExampleId?: string | null;
  hasCreate?: boolean;
}

type Exec = (sql: string, ...params: unknown[]) => Promise<unknown>;

/** Inserts runs; a run without a parent is a root whose trace id is its own id. */
export async function insertRuns(exec: Exec, runs: RunFixture[]): Promise<void> {
  for (const run of runs) {
    await exec(
      `INSERT INTO runs (tenant_id, id, session_id, trace_id, parent_run_id, is_root, name, run_type, status, start_time, end_time,
         error, tags, inputs, extra, reference_example_id, total_tokens, has_create)
       VALUES ($1::uuid, $2::uuid, $3::uuid, $4::uuid, $5::uuid, $6::boolean, $7, $8, $9, $10::timestamptz, $11::timestamptz,
         $12, $13::text[], $14::jsonb, $15::jsonb, $16::uuid, 0, $17::boolean)`,
      run.tenantId,
      run.id,
      run.sessionId ?? null,
      run.traceId ?? run.id,
      run.parentRunId ?? null,
      !run.parentRunId,
      run.name ?? 'run',
      run.runType ?? 'chain',
      run.error ? 'error' : 'success',
      run.startTime === undefined ? '2024-05-01T00:00:00Z' : run.startTime,
      run.endTime ?? null,
      run.error ?? null,
      run.tags ?? [],
      JSON.stringify(run.inputs ?? {}),
      JSON.stringify(run.extra ?? {}),
      run.referenceExampleId ?? null,
      run.hasCreate ?? true,
    );
  }
}

export async function insertFeedback(exec: Exec, tenantId: string, id: string, runId: string, key: string, score: number): Promise<void> {
  await exec(
    'INSERT INTO feedback (tenant_id, id, run_id, key, score) VALUES ($1::uuid, $2::uuid, $3::uuid, $4, $5::float8)',
    tenantId,
    id,
    runId,
    key,
    String(score),
  );
}

/** `00000000-0000-4000-8000-<n padded to 12>`: readable, sortable ids. */
export const uuidOf = (n: number, prefix = '00000000') => `${prefix}-0000-4000-8000-${String(n).padStart(12, '0')}`;
