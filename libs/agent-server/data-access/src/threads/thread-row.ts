import type { Thread, ThreadInterrupt, ThreadStatus } from './thread';

/** A `threads` row as the queries below select it. */
export interface ThreadRow {
  thread_id: string;
  created_at: Date | string;
  updated_at: Date | string;
  state_updated_at: Date | string;
  metadata: unknown;
  status: string;
  config: unknown;
  values: unknown;
  interrupts: unknown;
}

/** Every column of a thread, plus `state_updated_at`: when its last root checkpoint was written, else its creation. */
export const THREAD_COLUMNS = `t.thread_id::text AS thread_id, t.created_at, t.updated_at, t.metadata, t.status, t.config,
  t."values", t.interrupts,
  COALESCE((SELECT max(c.created_at) FROM checkpoints c WHERE c.thread_id = t.thread_id::text AND c.checkpoint_ns = ''),
    t.created_at) AS state_updated_at`;

// Both adapters (pg, PGlite) hand JSONB back parsed and timestamps as Dates.
function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

const iso = (value: Date | string) => new Date(value).toISOString();

export function toThread(row: ThreadRow): Thread {
  return {
    thread_id: row.thread_id,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    state_updated_at: iso(row.state_updated_at),
    metadata: record(row.metadata),
    status: row.status as ThreadStatus,
    config: record(row.config),
    values: row.values ?? {},
    interrupts: record(row.interrupts) as Record<string, ThreadInterrupt[]>,
  };
}
