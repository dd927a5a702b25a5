// Test and benchmark data in a tracing database: a project and set-based inserts of runs.
import type { PrismaClient } from './generated/prisma/client';

type Sql = Pick<PrismaClient, '$executeRawUnsafe' | '$queryRawUnsafe'>;

/** 2024-05-01T00:00:00Z in epoch microseconds. */
export const T0_US = 1_714_521_600_000_000n;
export const DAY_US = 86_400_000_000n;

export async function insertProject(db: Sql, tenantId: string, sessionId: string): Promise<void> {
  await db.$executeRawUnsafe(
    `INSERT INTO tracing_sessions (id, tenant_id, name) VALUES ($1::uuid, $2::uuid, $3)`,
    sessionId,
    tenantId,
    `project-${sessionId}`,
  );
}

export interface RunsToInsert {
  tenantId: string;
  sessionId: string;
  count: number;
  /** Row i starts at firstUs + floor(i / perTimestamp) * stepUs, so rows share start times. */
  firstUs?: bigint;
  stepUs?: number;
  perTimestamp?: number;
  /** Mean characters of text in each of inputs and outputs, varying ±1/3 (realistic runs: 1500); 0 = tiny. */
  payloadChars?: number;
}

/**
 * Inserts `count` created runs in one statement, with tags, metadata, tokens and costs, and inputs and
 * outputs of about `payloadChars` characters each.
 */
export async function insertRuns(db: Sql, runs: RunsToInsert): Promise<void> {
  const { firstUs = T0_US, stepUs = 1000, perTimestamp = 1, payloadChars = 0 } = runs;
  await db.$executeRawUnsafe(
    `INSERT INTO runs (tenant_id, id, session_id, trace_id, name, run_type, status, start_time, end_time, dotted_order,
                       is_root, parent_run_ids, inputs, outputs, extra, events, tags, prompt_tokens, completion_tokens,
                       total_tokens, prompt_cost, completion_cost, total_cost, has_create)
     SELECT $1::uuid, u.id, $2::uuid, u.id, 'run-' || u.g, (ARRAY['chain', 'llm', 'tool'])[1 + u.g % 3], 'success',
            u.st, u.st + interval '1.5 seconds', to_char(u.st, 'YYYYMMDD"T"HH24MISSUS"Z"') || u.id::text, true, '{}',
            jsonb_build_object('question', 'q' || u.g, 'context', left(u.text, u.chars)),
            jsonb_build_object('answer', right(u.text, u.chars), 'score', u.g % 100),
            jsonb_build_object('metadata', jsonb_build_object('user', 'u' || (u.g % 50), 'ls_model', 'gpt-4o-mini')),
            '[]'::jsonb, ARRAY['bench', 'batch-' || (u.g % 10)], 120 + u.g % 7, 80, 200 + u.g % 7,
            0.00012, 0.00008, 0.0002, true
     FROM (SELECT g, gen_random_uuid() AS id,
                  timestamptz 'epoch' + (($3::bigint + (g / $4::int) * $5::bigint) / 1000000) * interval '1 second'
                    + (($3::bigint + (g / $4::int) * $5::bigint) % 1000000) * interval '1 microsecond' AS st,
                  $6::int * (2 + g % 3) / 3 AS chars,
                  -- Hex of distinct hashes: about as incompressible as real text, so TOAST does real work.
                  (SELECT string_agg(md5(g::text || '-' || k), ' ') FROM generate_series(1, ceil($6::int / 24.0)::int) AS k) AS text
           FROM generate_series(0, $7::int - 1) AS g) AS u`,
    runs.tenantId,
    runs.sessionId,
    firstUs.toString(),
    perTimestamp,
    stepUs,
    payloadChars,
    runs.count,
  );
}
