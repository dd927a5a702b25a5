// Test support for the stream specs: set-based inserts of runs through raw SQL (runs of a given type, with or without
// their create half), beside the tracing database's own fixtures.
import type { PrismaClient } from '@platform/tracing-data-access';
import { T0_US, type RunsToInsert as DataRunsToInsert } from '@platform/tracing-data-access/testing';

export { insertProject, T0_US } from '@platform/tracing-data-access/testing';

type SqlClient = Pick<PrismaClient, '$executeRawUnsafe'>;

/** The rows of the tracing database's `insertRuns`, all of one run type and with or without their create half. */
export interface RunsToInsert extends Omit<DataRunsToInsert, 'payloadChars'> {
  runType?: string;
  hasCreate?: boolean;
}

/** Inserts `count` runs in one statement; returns nothing (read ids back through the stream). */
export async function insertRuns(db: SqlClient, runs: RunsToInsert): Promise<void> {
  const { firstUs = T0_US, stepUs = 1000, perTimestamp = 1, runType = 'chain', hasCreate = true } = runs;
  await db.$executeRawUnsafe(
    `INSERT INTO runs (tenant_id, id, session_id, trace_id, name, run_type, status, start_time, dotted_order, is_root,
                       inputs, has_create)
     SELECT $1::uuid, u.id, $2::uuid, u.id, 'run-' || u.g, $3, 'success',
            timestamptz 'epoch' + (u.us / 1000000) * interval '1 second' + (u.us % 1000000) * interval '1 microsecond',
            '20240501T000000000000Z' || u.id::text, true, jsonb_build_object('i', u.g), $7::boolean
     FROM (SELECT g, gen_random_uuid() AS id, $4::bigint + (g / $5::int) * $6::bigint AS us
           FROM generate_series(0, $8::int - 1) AS g) AS u`,
    runs.tenantId,
    runs.sessionId,
    runType,
    firstUs.toString(),
    perTimestamp,
    stepUs,
    hasCreate,
    runs.count,
  );
}

/** Compares two proto cursors in (start_time, id) order. */
export function compareCursors(a: { start_time: string; id: string }, b: { start_time: string; id: string }): number {
  const dt = BigInt(a.start_time) - BigInt(b.start_time);
  if (dt !== 0n) return dt < 0n ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
