import { accessFilterSql, binderOf, type AccessFilter } from '@platform/agent-server-data-access';
import { ConflictError } from '@platform/errors';
import type { SqlRunner, SqlSession } from '@platform/prisma';
import type { MultitaskStrategy, RunKwargs, RunRecord } from './run';
import { cancelRuns, type InflightRun } from './run-cancel.sql';
import { RUN_CHANNELS } from './run-channels';
import { msInterval } from './run-rows';
import { threadNotFound } from './run.repository';

export interface NewRun {
  runId: string;
  threadId: string;
  assistantId: string;
  graphId: string;
  /**
   * The run's metadata is `assistant`'s, then its thread's (unless the run creates the thread), then `request`'s,
   * merged in the statement that inserts the run; it also becomes `kwargs.config.metadata`. A thread the run creates
   * gets `newThread`.
   */
  metadata: { assistant: Record<string, unknown>; request: Record<string, unknown>; newThread: Record<string, unknown> };
  kwargs: RunKwargs;
  /**
   * The assistant's config and the request's: a thread the run starts on keeps them merged as its `config`
   * (configurable key by key), as the reference does, so a graph factory reading the thread later gets them too.
   */
  configs: { assistant: Record<string, unknown>; request: Record<string, unknown> };
  multitaskStrategy: MultitaskStrategy;
  afterMs: number;
  /**
   * `new`: a stateless run's thread, made with the run; `existing`: the thread must exist (404 otherwise);
   * `create`: made when missing (`if_not_exists: create`).
   */
  thread: 'new' | 'existing' | 'create';
  /** Whether the thread is deleted when the run ends (stateless, `on_completion: delete`). */
  temporaryThread: boolean;
  /** Start the run at once, leased to this replica, when nothing runs on the thread and it is not delayed. */
  startAs?: { owner: string; leaseMs: number };
  /** An existing thread must pass the caller's filter (the deployment's auth), else it is not found. */
  visible?: AccessFilter;
}

export interface CreatedRun {
  run: RunRecord;
  /** True when the run was inserted as running, leased to `startAs.owner`. */
  started: boolean;
  /** Pending behind another run of its thread: whoever ends that one claims it (no queue signal needed). */
  behindThread: boolean;
}

export const THREAD_BUSY_MESSAGE = 'Thread is already running a task. Wait for it to finish or choose a different multitask strategy.';

const INSERT_COLUMNS = `run_id, thread_id, assistant_id, status, metadata, kwargs, multitask_strategy, available_at, attempt,
  lease_owner, lease_expires_at, started_at, temporary_thread, created_at, updated_at`;

// The run's metadata with `t.metadata`, what the thread row `t` adds (see NewRun.metadata); into its kwargs' config too.
const MERGED_METADATA = `$5::jsonb || t.metadata || $13::jsonb`;
const KWARGS = `jsonb_set($6::jsonb, '{config,metadata}', COALESCE($6::jsonb #> '{config,metadata}', '{}'::jsonb) || ${MERGED_METADATA})`;

// created_at is clock_timestamp(): taken after the thread lock, so runs of one thread are stamped in arrival order.
const INSERT_VALUES = `$1::uuid, $2::uuid, $3::uuid, $4, ${MERGED_METADATA}, ${KWARGS}, $7, now() + ${msInterval(8)}, $9::int,
  $10::text, CASE WHEN $10::text IS NULL THEN NULL ELSE now() + ${msInterval(11)} END,
  CASE WHEN $10::text IS NULL THEN NULL ELSE now() END, $12::boolean, clock_timestamp(), clock_timestamp()`;

/** Parameters $1 to $13 of INSERT_VALUES. */
function insertParams(run: NewRun, started: boolean): unknown[] {
  return [
    run.runId,
    run.threadId,
    run.assistantId,
    started ? 'running' : 'pending',
    JSON.stringify(run.metadata.assistant),
    JSON.stringify(run.kwargs),
    run.multitaskStrategy,
    run.afterMs,
    started ? 1 : 0,
    started ? (run.startAs?.owner ?? null) : null,
    run.startAs?.leaseMs ?? 0,
    run.temporaryThread,
    JSON.stringify(run.metadata.request),
  ];
}

// What a run writes into its existing thread's metadata: the graph and the assistant it runs.
const ranWith = (run: NewRun) => JSON.stringify({ graph_id: run.graphId, assistant_id: run.assistantId });

// The thread's config after a run starts on it: assistant's < thread's own < request's ($a, $r: the run's configs).
const mergedThreadConfig = (a: string, r: string, own = 'config') =>
  `(${a}::jsonb || ${own} || ${r}::jsonb || jsonb_build_object('configurable',
     coalesce(${a}::jsonb -> 'configurable', '{}') || coalesce(${own} -> 'configurable', '{}') || coalesce(${r}::jsonb -> 'configurable', '{}')))`;
const configParams = (run: NewRun) => [JSON.stringify(run.configs.assistant), JSON.stringify(run.configs.request)];

// Only what the database decided comes back; the rest is the caller's (no need to ship kwargs back and parse them).
const RETURNED = 'created_at, updated_at, status, attempt, lease_owner, started_at, metadata';
type Returned = {
  created_at: Date;
  updated_at: Date;
  status: string;
  attempt: number;
  lease_owner: string | null;
  started_at: Date | null;
  metadata: Record<string, unknown>;
};

function record(run: NewRun, row: Returned): RunRecord {
  const metadata = typeof row.metadata === 'string' ? (JSON.parse(row.metadata) as Record<string, unknown>) : row.metadata;
  const config = run.kwargs.config;
  return {
    run_id: run.runId,
    thread_id: run.threadId,
    assistant_id: run.assistantId,
    created_at: new Date(row.created_at),
    updated_at: new Date(row.updated_at),
    status: row.status as RunRecord['status'],
    metadata,
    kwargs: { ...run.kwargs, config: { ...config, metadata: { ...config.metadata, ...metadata } } },
    multitask_strategy: run.multitaskStrategy,
    attempt: Number(row.attempt),
    lease_owner: row.lease_owner,
    temporary_thread: run.temporaryThread,
    cancel_action: null,
    started_at: row.started_at === null ? null : new Date(row.started_at),
    ended_at: null,
  };
}

// Built once (not per run): building the text and hashing it again to find its prepared statement cost every run.
const INSERT_WITH_NEW_THREAD_SQL = `WITH t AS (INSERT INTO threads (thread_id, metadata, status, config)
                VALUES ($2::uuid, $14::jsonb, 'busy', ${mergedThreadConfig('$16', '$17', "'{}'::jsonb")}) RETURNING thread_id, '{}'::jsonb AS metadata),
     n AS (SELECT pg_notify($15, '') WHERE $4 = 'pending'),
     ins AS (INSERT INTO runs (${INSERT_COLUMNS}) SELECT ${INSERT_VALUES} FROM t RETURNING ${RETURNED})
     SELECT ins.*, (SELECT count(*) FROM n) AS notified FROM ins`;

const INSERT_ON_THREAD_SQL = `WITH t AS (UPDATE threads SET status = 'busy', metadata = metadata || $14::jsonb, updated_at = now(),
                    config = CASE WHEN status = 'busy' THEN config ELSE ${mergedThreadConfig('$16', '$17')} END
                  WHERE thread_id = $2::uuid RETURNING thread_id, CASE WHEN $15::boolean THEN '{}'::jsonb ELSE metadata END AS metadata)
       INSERT INTO runs (${INSERT_COLUMNS}) SELECT ${INSERT_VALUES} FROM t RETURNING ${RETURNED}`;

/** A stateless run: its thread is new, so there is nothing to lock or to double-text; one statement. */
async function insertWithNewThread(sql: SqlSession, run: NewRun, started: boolean): Promise<RunRecord> {
  // A queued run wakes the replicas' claimers (NOTIFY in the same statement: one round trip either way).
  const [row] = await sql.query<Returned>(
    INSERT_WITH_NEW_THREAD_SQL,
    [...insertParams(run, started), JSON.stringify(run.metadata.newThread), RUN_CHANNELS.queue, ...configParams(run)],
  );
  return record(run, row);
}

/**
 * Locks the run's thread, creating it first with `if_not_exists: create`; says whether it created it. A thread the
 * caller's filter hides is not found, even where a missing one would be created.
 */
async function lockThread(tx: SqlRunner, run: NewRun): Promise<boolean> {
  const params: unknown[] = [run.threadId];
  const allowed = accessFilterSql(run.visible, 't.metadata', binderOf(params));
  const lock = () => tx.query<{ allowed?: boolean }>(`SELECT thread_id${allowed ? `, ${allowed} AS allowed` : ''} FROM threads t WHERE thread_id = $1::uuid FOR UPDATE`, params);
  const seen = async () => {
    const [row] = await lock();
    if (row && allowed && !row.allowed) throw threadNotFound(run.threadId);
    return Boolean(row);
  };
  if (await seen()) return false;
  if (run.thread !== 'create') throw threadNotFound(run.threadId);
  await tx.query(`INSERT INTO threads (thread_id, metadata) VALUES ($1::uuid, $2::jsonb) ON CONFLICT (thread_id) DO NOTHING`, [
    run.threadId,
    JSON.stringify(run.metadata.newThread),
  ]);
  await seen();
  return true;
}

/**
 * Inserts a run, applying its multitask strategy to the thread's pending and running runs in the same
 * transaction (the thread row is locked, so concurrent creations on one thread are serialised in arrival order).
 */
export async function insertRun(sql: SqlSession, run: NewRun): Promise<CreatedRun> {
  const canStart = Boolean(run.startAs) && run.afterMs <= 0;
  if (run.thread === 'new') {
    return { run: await insertWithNewThread(sql, run, canStart), started: canStart, behindThread: false };
  }
  return sql.transaction(async (tx) => {
    const created = await lockThread(tx, run);
    let inflight = await tx.query<InflightRun>(
      `SELECT run_id::text AS run_id, thread_id::text AS thread_id, status FROM runs
       WHERE thread_id = $1::uuid AND status IN ('pending', 'running') ORDER BY created_at, run_id`,
      [run.threadId],
    );
    if (inflight.length > 0) {
      if (run.multitaskStrategy === 'reject') throw new ConflictError(THREAD_BUSY_MESSAGE);
      if (run.multitaskStrategy === 'interrupt' || run.multitaskStrategy === 'rollback') {
        await cancelRuns(tx, inflight, run.multitaskStrategy);
        inflight = inflight.filter((other) => other.status === 'running');
      }
    }
    const started = canStart && inflight.length === 0;
    const [row] = await tx.query<Returned>(
      INSERT_ON_THREAD_SQL,
      [...insertParams(run, started), ranWith(run), created, ...configParams(run)],
    );
    const behindThread = inflight.length > 0;
    if (!started && !behindThread) await tx.query(`SELECT pg_notify($1, '')`, [RUN_CHANNELS.queue]);
    return { run: record(run, row), started, behindThread };
  });
}
