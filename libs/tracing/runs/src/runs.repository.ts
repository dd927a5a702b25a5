import { NotFoundError } from '@platform/errors';
import type { RunAttachment } from './attachments/run-attachment';
import { writeAttachments } from './attachments/run-attachments.repository';
import { FEEDBACK_STATS_SQL, UPSERT_FEEDBACK_SQL, type FeedbackRecord } from './ingest/feedback';
import { storableJson } from '@platform/prisma';
import type { IngestSql, SqlQuery } from '@platform/tracing-data-access';
import type { StoredRun } from './ingest/own-usage';
import { planWrites, type SessionLookup, type StoredContext, type UsageColumns } from './ingest/plan-writes';
import { INSERT_RUNS_SQL, LOCK_SQL, READ_STORED_SQL, UPDATE_RUNS_SQL } from './ingest/run-write.sql';
import type { RunWrite } from './ingest/run-write';
import { requiredLockKeys, sortedKeys } from './ingest/trace-locks';
import { RUN_SELECT, type RunRow } from './run-row';

/** One batch to store: its runs (merged per id), its feedback and attachments, and the projects its runs name. */
export interface RunBatchWrite {
  tenantId: string;
  writes: RunWrite[];
  feedback: FeedbackRecord[];
  attachments?: RunAttachment[];
  sessions: SessionLookup;
  /** Runs that must already be stored (`PATCH /runs/{id}`): NotFoundError otherwise. */
  mustExist?: string[];
}

export interface RunsRepositoryOptions {
  /** Runs per transaction: a larger batch is written in several (each consistent on its own). */
  maxRunsPerTransaction?: number;
  /** Attempts of a transaction that lost a race (a deadlock, a run inserted meanwhile). */
  maxAttempts?: number;
}

/** A concurrent writer changed what this transaction planned on; it is rolled back and run again. */
class StaleWrite extends Error {}

interface StoredJson {
  id: string;
  trace_id: string | null;
  parent_run_ids: string[] | null;
  dotted_order: string | null;
  run_type: string | null;
  has_outputs: boolean;
  has_extra: boolean;
  outputs: unknown;
  extra: unknown;
  own_prompt_tokens: number;
  own_completion_tokens: number;
  own_total_tokens: number;
  own_prompt_cost: number | null;
  own_completion_cost: number | null;
  own_total_cost: number | null;
}

interface ReadResult {
  runs: StoredJson[];
  descendants: (UsageColumns & { id: string })[];
  feedback: Record<string, unknown>;
}

function toStored(row: StoredJson): StoredRun {
  return {
    id: row.id,
    traceId: row.trace_id,
    parentRunIds: row.parent_run_ids,
    dottedOrder: row.dotted_order,
    runType: row.run_type,
    hasOutputs: row.has_outputs,
    hasExtra: row.has_extra,
    outputs: row.outputs ?? undefined,
    extra: row.extra ?? undefined,
    own: {
      promptTokens: Number(row.own_prompt_tokens),
      completionTokens: Number(row.own_completion_tokens),
      totalTokens: Number(row.own_total_tokens),
      promptCost: row.own_prompt_cost === null ? null : Number(row.own_prompt_cost),
      completionCost: row.own_completion_cost === null ? null : Number(row.own_completion_cost),
      totalCost: row.own_total_cost === null ? null : Number(row.own_total_cost),
    },
  };
}

const RETRYABLE_SQLSTATES = new Set(['40P01', '40001']);

/** A deadlock or serialization failure (from pg directly or through Prisma), or a stale plan. */
function isRetryable(err: unknown): boolean {
  if (err instanceof StaleWrite) return true;
  const e = err as { code?: string; meta?: { driverAdapterError?: { cause?: { code?: string; originalCode?: string } } } };
  const cause = e?.meta?.driverAdapterError?.cause;
  return e?.code === 'P2034' || RETRYABLE_SQLSTATES.has(e?.code ?? '') || RETRYABLE_SQLSTATES.has(cause?.originalCode ?? cause?.code ?? '');
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The `runs` and `feedback` tables: set-based batch writes that keep rolled-up totals right under any arrival
 * order and concurrency, and reads by id.
 */
export class RunsRepository {
  private readonly maxRuns: number;
  private readonly maxAttempts: number;

  constructor(
    private readonly sql: IngestSql,
    options: RunsRepositoryOptions = {},
  ) {
    this.maxRuns = options.maxRunsPerTransaction ?? 500;
    this.maxAttempts = options.maxAttempts ?? 8;
  }

  /** A run the workspace created (`has_create`), or null. */
  async findRun(tenantId: string, id: string): Promise<RunRow | null> {
    const rows = await this.sql.query<RunRow>(
      `SELECT ${RUN_SELECT} FROM runs r WHERE r.tenant_id = $1::uuid AND r.id = $2::uuid AND r.has_create`,
      [tenantId, id],
    );
    return rows[0] ?? null;
  }

  /** Runs the workspace has stored (the stored-runs quota). */
  async countRuns(tenantId: string): Promise<number> {
    const rows = await this.sql.query<{ n: string | number }>(`SELECT count(*) AS n FROM runs WHERE tenant_id = $1::uuid`, [tenantId]);
    return Number(rows[0]?.n ?? 0);
  }

  /** Stores a batch: chunks of runs in transactions of their own, feedback and attachments with the last chunk. */
  async writeBatch(batch: RunBatchWrite): Promise<void> {
    const chunks: RunWrite[][] = [];
    for (let i = 0; i < batch.writes.length; i += this.maxRuns) chunks.push(batch.writes.slice(i, i + this.maxRuns));
    if (chunks.length === 0) chunks.push([]);
    for (let i = 0; i < chunks.length; i++) {
      const last = i === chunks.length - 1;
      const rest = last ? {} : { feedback: [], attachments: [] };
      await this.withRetries(() => this.writeChunk({ ...batch, writes: chunks[i], ...rest }));
    }
  }

  private async withRetries(attempt: () => Promise<void>): Promise<void> {
    for (let n = 1; ; n++) {
      try {
        return await attempt();
      } catch (err) {
        if (n >= this.maxAttempts || !isRetryable(err)) throw err;
        await pause(Math.random() * 20 * n);
      }
    }
  }

  private writeChunk(batch: RunBatchWrite): Promise<void> {
    return this.sql.transaction(async (tx) => {
      const stored = await this.lockAndRead(tx, batch);
      for (const id of batch.mustExist ?? []) if (!stored.runs.has(id)) throw new NotFoundError(`Run ${id} not found`);
      const plan = planWrites(batch.writes, stored, batch.sessions);
      const tenant = batch.tenantId;
      if (plan.updates.length) {
        const updated = new Set((await tx.query<{ id: string }>(UPDATE_RUNS_SQL, [tenant, storableJson(plan.updates)])).map((r) => r.id));
        for (const row of plan.updates) {
          if (!row.delta_only && !updated.has(row.id)) throw new StaleWrite('a run was deleted concurrently');
        }
      }
      if (plan.inserts.length) {
        const inserted = await tx.query<{ id: string }>(INSERT_RUNS_SQL, [tenant, storableJson(plan.inserts)]);
        if (inserted.length !== plan.inserts.length) throw new StaleWrite('a run was inserted concurrently');
      }
      if (batch.feedback.length) await this.writeFeedback(tx, tenant, batch.feedback);
      if (batch.attachments?.length) await writeAttachments(tx, tenant, batch.attachments);
    });
  }

  /**
   * Takes the advisory locks of the batch's traces (in one global order), then reads what planning needs. What is
   * read may name a trace not locked yet (a run stored by another writer meanwhile): lock it too and read again.
   */
  private async lockAndRead(tx: SqlQuery, batch: RunBatchWrite): Promise<StoredContext> {
    const { tenantId, writes, feedback } = batch;
    const ids = new Set(writes.map((w) => w.id));
    let untraced = feedback.some((f) => !f.trace_id);
    for (const f of feedback) ids.add(f.run_id);
    for (const w of writes) {
      if (!w.post?.traceId && !w.patch?.traceId) untraced = true;
      const parent = !w.post?.placement && !w.patch?.placement ? (w.post?.parentRunId ?? w.patch?.parentRunId) : undefined;
      if (parent) ids.add(parent);
    }
    const idsJson = JSON.stringify([...ids]);
    let context: StoredContext | undefined;
    const read = async (): Promise<StoredContext> => {
      const runs = new Map<string, StoredRun>();
      const traces = new Set<string>();
      for (const w of writes) for (const t of [w.post?.traceId, w.patch?.traceId]) if (t) traces.add(t);
      for (const run of context?.runs.values() ?? []) if (run.traceId) traces.add(run.traceId);
      const [result] = await tx.query<ReadResult>(READ_STORED_SQL, [tenantId, idsJson, JSON.stringify([...traces])]);
      for (const row of result.runs) runs.set(row.id, toStored(row));
      return {
        runs,
        descendantUsage: new Map(result.descendants.map(({ id, ...usage }) => [id, usage])),
        feedbackStats: new Map(Object.entries(result.feedback)),
      };
    };

    // Runs that don't name their trace: find it first (from what is stored), to lock it with the others.
    if (untraced || ids.size > writes.length) context = await read();
    const held = new Set<bigint>();
    for (let round = 0; round < 5; round++) {
      const missing = [...requiredLockKeys(tenantId, writes, context?.runs ?? new Map(), feedback)].filter((k) => !held.has(k));
      if (missing.length === 0 && context && round > 0) return context;
      if (missing.length) await tx.query(LOCK_SQL, [JSON.stringify(sortedKeys(missing))]);
      for (const k of missing) held.add(k);
      context = await read();
    }
    throw new StaleWrite('traces kept changing while locking');
  }

  private async writeFeedback(tx: SqlQuery, tenantId: string, feedback: FeedbackRecord[]): Promise<void> {
    // One row per id (the last sent wins): a statement may not change a row twice.
    const byId = new Map(feedback.map((f) => [f.id, f]));
    await tx.query(UPSERT_FEEDBACK_SQL, [tenantId, storableJson([...byId.values()])]);
    await tx.query(FEEDBACK_STATS_SQL, [tenantId, JSON.stringify([...new Set(feedback.map((f) => f.run_id))])]);
  }
}
