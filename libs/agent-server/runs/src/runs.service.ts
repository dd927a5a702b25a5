import { randomUUID } from 'node:crypto';
import type { BaseCheckpointSaver } from '@langchain/langgraph';
import type { Access, AccessFilter } from '@platform/agent-server-auth';
import type { GraphRegistry } from '@platform/agent-server-graphs';
import { NotFoundError } from '@platform/errors';
import type { Logger } from '@platform/logging';
import type { Notifications, SqlSession } from '@platform/prisma';
import {
  isFinished,
  type CancelAction,
  type RunEnd,
  type RunRecord,
  type RunStatus,
  insertRun,
  cachedAssistantResolver,
  authorizeRunCreate,
  buildRunKwargs,
  newRunMetadata,
  requestConfig,
  type AssistantResolver,
  type RunCreateRequest,
  createRunRepository,
  noAssistantFor,
  runNotFound,
  threadNotFound,
  type CancelFilter,
  searchRuns,
  type RunSearchPage,
  type RunSearchQuery,
  uuid7,
} from '@platform/agent-server-run-records';
import {
  createRunEventRepository,
  RunStreamHub,
  type SubscribeFrom,
  type RunSubscription,
  threadStream,
  type ThreadStreamEvent,
  type ThreadStreamFrom,
} from '@platform/agent-server-run-streams';
import {
  RunExecutor,
  createRunQueueRepository,
  RunSweeper,
  createRunTracing,
  type RunTracingOptions,
  createWebhookSender,
  type WebhookOptions,
  RunWorker,
  type RunQueue,
} from '@platform/agent-server-run-execution';
import { type ProtocolEvent, protocolStreamOnceCreated, protocolThreadStream, createRunOrdinals } from '@platform/agent-server-thread-protocol';

/** Queue and streaming settings (see the agent server's config for their variables and defaults). */
export interface RunSettings {
  /** Runs executed at once by this replica. */
  concurrency: number;
  leaseMs: number;
  heartbeatMs: number;
  pollMs: number;
  sweepMs: number;
  maxAttempts: number;
  /** How long run events stay after the run ended (resumable streams, late joins). */
  retentionMs: number;
  retentionSweepMs?: number;
  /** How long a run's events are batched before they are written. */
  flushMs: number;
  shutdownGraceMs: number;
  /** How long a resolved assistant may be reused at most (changes drop it at once anyway). */
  assistantCacheMs?: number;
}

export interface RunServiceDeps {
  sql: SqlSession;
  notifications: Notifications;
  registry: GraphRegistry;
  checkpointer: BaseCheckpointSaver;
  assistants: AssistantResolver;
  logger: Logger;
  settings: RunSettings;
  /** LangSmith tracing of every run, when configured. */
  tracing?: RunTracingOptions;
  /** This replica's lease owner id (default: a fresh one). */
  owner?: string;
  /** This deployment's public URL, recorded in checkpoint metadata (`langgraph_api_url`). */
  apiUrl?: string;
  /** False: a run's `webhook` is never called (langgraph.json `http.disable_webhooks`). Default true. */
  webhooks?: boolean;
  /**
   * Where webhooks may go (the operator's egress allowlist), the secret they are signed with, and the deployment's
   * own server for webhooks given as a path (`/custom/webhook`).
   */
  webhookOptions?: WebhookOptions;
}

/** Where a new run goes: a thread (`null`: stateless, on a thread of its own). */
export type RunTarget = { threadId: string } | { threadId: null };

/**
 * Runs: create, read, cancel, follow. `visible` is the caller's filter from the deployment's auth, on the metadata of
 * the run's thread: a run of a thread it hides is not found.
 */
export interface RunService {
  readonly owner: string;
  /** Runs waiting and due, and runs executing, across every replica of the deployment (for metrics). */
  depth(): Promise<{ queued: number; running: number }>;
  /** Starts the worker (claims, heartbeats, sweeps) and the stream listeners. */
  start(): Promise<void>;
  /** Stops claiming and hands running runs back (see RunWorker.stop). */
  stop(): Promise<void>;
  /**
   * With `access` (a request under the deployment's auth), `threads:create_run` decides first: it may refuse, filter
   * the thread and stamp the metadata; the caller goes into the run's configurable (`langgraph_auth_user`, ...).
   */
  create(target: RunTarget, request: RunCreateRequest, access?: Access): Promise<RunRecord>;
  get(threadId: string, runId: string, visible?: AccessFilter): Promise<RunRecord>;
  /** A run by id alone (stateless joins); NotFoundError when unknown. */
  getById(runId: string, visible?: AccessFilter): Promise<RunRecord>;
  list(threadId: string, query: { limit: number; offset: number; status?: RunStatus }, visible?: AccessFilter): Promise<RunRecord[]>;
  /** Runs of an assistant across threads, most recently changed first (A2A's ListTasks); `visible` filters their threads. */
  search(query: RunSearchQuery, visible?: AccessFilter): Promise<RunSearchPage>;
  delete(threadId: string, runId: string, visible?: AccessFilter): Promise<void>;
  /** Cancels one run (a no-op when it already ended); with `wait`, returns once it stopped. */
  cancel(threadId: string | null, runId: string, options: { action: CancelAction; wait?: boolean; visible?: AccessFilter }): Promise<void>;
  cancelMany(filter: CancelFilter, action: CancelAction): Promise<void>;
  subscribe(runId: string, from: SubscribeFrom): Promise<RunSubscription>;
  waitForEnd(runId: string): Promise<RunEnd | null>;
  /** Whether the thread exists and `visible` lets the caller see it. */
  threadVisible(threadId: string, visible?: AccessFilter): Promise<boolean>;
  /** The events of a thread's runs as they come (`GET /threads/{id}/stream`); NotFoundError for an unknown thread. */
  streamThread(threadId: string, from: ThreadStreamFrom, signal: AbortSignal, visible?: AccessFilter): Promise<AsyncIterable<ThreadStreamEvent>>;
  /**
   * The thread's runs as streaming-protocol events (`POST /threads/{id}/stream/events`), numbered per thread; `since`:
   * after that seq, else from the run in flight (or the latest). A thread `visible` hides is a NotFoundError; one that
   * does not exist yet is waited for (then streamed if `visible` lets it through).
   */
  streamProtocol(threadId: string, since: number | undefined, signal: AbortSignal, visible?: AccessFilter): Promise<AsyncIterable<ProtocolEvent>>;
  /**
   * What join and wait answer once the run ended: its output, else the thread's values; NotFoundError if it
   * vanished. `fresh`: the run was created by this request just now.
   */
  output(run: Pick<RunRecord, 'run_id' | 'thread_id'>, options?: { fresh?: boolean }): Promise<string>;
}

export function createRunService(deps: RunServiceDeps): RunService {
  const owner = deps.owner ?? `${process.pid}-${randomUUID()}`;
  const { settings, logger } = deps;
  const runs = createRunRepository(deps.sql);
  const events = createRunEventRepository(deps.sql);
  const queue = createRunQueueRepository(deps.sql);
  const ordinals = createRunOrdinals(deps.sql);
  const assistants = cachedAssistantResolver(deps.assistants, deps.notifications, { ttlMs: settings.assistantCacheMs ?? 60_000, logger });
  const hub = new RunStreamHub({ runs, events, notifications: deps.notifications, logger, flushMs: settings.flushMs });
  const executor = new RunExecutor({
    registry: deps.registry,
    checkpointer: deps.checkpointer,
    queue,
    // Runs end through this replica's queue (the worker, made below: each needs the other).
    runQueue: { finish: (finish) => worker.finish(finish) },
    events,
    hub,
    owner,
    logger,
    tracing: deps.tracing ? createRunTracing(deps.tracing) : undefined,
    webhook: deps.webhooks === false ? undefined : createWebhookSender(logger, deps.webhookOptions),
    apiUrl: deps.apiUrl,
  });
  const sweeper = new RunSweeper({
    queue,
    events,
    notifications: deps.notifications,
    logger,
    maxAttempts: settings.maxAttempts,
    retentionMs: settings.retentionMs,
    retentionSweepMs: settings.retentionSweepMs,
    refreshThread: (threadId, graphId) => executor.refreshThread(threadId, graphId),
  });
  const worker: RunQueue = new RunWorker({
    queue,
    executor,
    sweeper,
    notifications: deps.notifications,
    logger,
    owner,
    concurrency: settings.concurrency,
    leaseMs: settings.leaseMs,
    heartbeatMs: settings.heartbeatMs,
    pollMs: settings.pollMs,
    sweepMs: settings.sweepMs,
    shutdownGraceMs: settings.shutdownGraceMs,
  });

  let stopping: Promise<void> | undefined;
  const getById = async (runId: string, visible?: AccessFilter) => {
    const run = await runs.find(runId, undefined, visible);
    if (!run) throw runNotFound();
    return run;
  };

  return {
    owner,
    depth: () => queue.depth(),

    async start() {
      await assistants.start();
      await hub.start();
      await worker.start();
    },

    stop() {
      stopping ??= (async () => {
        await worker.stop();
        await hub.stop();
        await assistants.stop();
      })();
      return stopping;
    },

    async create(target, request, access) {
      const assistant = await assistants.resolve(request.assistant_id).catch((err: unknown) => {
        throw err instanceof NotFoundError ? noAssistantFor(request.assistant_id) : err;
      });
      const stateless = target.threadId === null;
      const temporary = stateless && (request.on_completion ?? 'delete') === 'delete';
      const threadId = target.threadId ?? randomUUID();
      const runId = uuid7();
      const multitaskStrategy = request.multitask_strategy ?? 'enqueue';
      const kwargs = buildRunKwargs(assistant, request, { runId, threadId, temporary }, access?.caller);
      // No work at all without the deployment's auth.
      const allowed = access?.caller
        ? await authorizeRunCreate(access, { threadId: target.threadId, assistantId: assistant.assistant_id, runId, multitaskStrategy, kwargs }, request)
        : undefined;
      const afterMs = Math.round((request.after_seconds ?? 0) * 1000);
      return worker.submit(afterMs, (startAs) =>
        insertRun(deps.sql, {
          runId,
          threadId,
          assistantId: assistant.assistant_id,
          graphId: assistant.graph_id,
          metadata: newRunMetadata(assistant, request, allowed?.metadata),
          kwargs,
          configs: { assistant: assistant.config, request: requestConfig(request, access?.caller) },
          multitaskStrategy,
          afterMs,
          thread: stateless ? 'new' : request.if_not_exists === 'create' ? 'create' : 'existing',
          temporaryThread: temporary,
          startAs,
          visible: allowed?.visible,
        }),
      );
    },

    get: (threadId, runId, visible) => runs.get(threadId, runId, visible),
    getById,
    list: (threadId, query, visible) => runs.list(threadId, query, visible),
    search: (query, visible) => searchRuns(deps.sql, query, visible),
    async delete(threadId, runId, visible) {
      const graphId = await runs.delete(threadId, runId, visible);
      // Its checkpoints went with it: the thread's cached values and status follow what is left.
      if (graphId) await executor.refreshThread(threadId, graphId);
    },

    async cancel(threadId, runId, { action, wait, visible }) {
      const run = threadId ? await runs.get(threadId, runId, visible) : await getById(runId, visible);
      if (!isFinished(run.status)) {
        await runs.cancel({ runIds: [runId] }, action);
        // Stop it now if it runs here; the NOTIFY reaches the other replicas.
        worker.cancelLocal(runId, action);
      }
      if (wait) await hub.waitForEnd(runId);
    },

    async cancelMany(filter, action) {
      const cancelled = await runs.cancel(filter, action);
      for (const run of cancelled) if (run.status === 'running') worker.cancelLocal(run.run_id, action);
    },

    subscribe: (runId, from) => hub.subscribe(runId, from),

    threadVisible: (threadId, visible) => runs.threadExists(threadId, visible),

    async streamThread(threadId, from, signal, visible) {
      if (!(await runs.threadExists(threadId, visible))) throw threadNotFound(threadId);
      return threadStream({ runs, hub }, threadId, from, signal);
    },
    async streamProtocol(threadId, since, signal, visible) {
      if (await runs.threadExists(threadId, visible)) return protocolThreadStream({ runs, hub, ordinals }, threadId, since, signal);
      if (await runs.threadExists(threadId)) throw threadNotFound(threadId);
      return protocolStreamOnceCreated({ runs, hub, ordinals }, threadId, since, signal, (id) => runs.threadExists(id, visible));
    },
    waitForEnd: (runId) => hub.waitForEnd(runId),

    async output(run, options) {
      const end = await hub.waitForEnd(run.run_id, options);
      if (!end) throw runNotFound();
      return end.output ?? (await runs.threadValues(run.thread_id)) ?? '{}';
    },
  };
}
