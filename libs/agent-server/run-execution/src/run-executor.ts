import { isGraphDrained, type BaseCheckpointSaver, type RunControl } from '@langchain/langgraph';
import { serializeJson, toJsonValue, type AgentGraph, type GraphRegistry } from '@platform/agent-server-graphs';
import { UnavailableError } from '@platform/errors';
import type { Logger } from '@platform/logging';
import { isDatabaseUnavailable } from '@platform/prisma';
import { toRun, type RunRecord, type RunStatus } from '@platform/agent-server-run-records';
import { RunCheckpointer } from './run-checkpointer';
import { type RunEventRepository, type RunEventLog, type RunStreamHub, StreamMapper } from '@platform/agent-server-run-streams';
import { graphStreamOptions, runSaver, withoutCheckpointer } from './run-graph-options';
import { graphEvents } from './run-graph-stream';
import { toCommand } from './run-input';
import type { RunFinish, RunQueueRepository } from './run-queue.repository';
import type { RunEnded, RunQueue } from './run-queue';
import type { RunTracing } from './run-tracing';
import { readThreadState, type CachedThreadState } from './run-thread-state';
import type { WebhookSender } from './run-webhook';

/** Why a run's AbortSignal fired. */
export type AbortReason = 'interrupt' | 'rollback' | 'shutdown' | 'lost';

/** A run this replica holds the lease of. */
export interface ActiveRun {
  run: RunRecord;
  signal: AbortSignal;
  /** The graph's drain at a superstep boundary (none with LangGraph older than 1.4.0). */
  control?: RunControl;
}

/** What ending a run left for the replica: runs waiting on its thread. */
export interface RunExit {
  waiting: number;
}

const NOTHING: RunExit = { waiting: 0 };

export interface RunExecutorDeps {
  registry: GraphRegistry;
  checkpointer: BaseCheckpointSaver;
  /** The queue's rows: hand-backs, rollbacks, threads and checkpoints. Claims are the worker's, ends go through `runQueue`. */
  queue: Omit<RunQueueRepository, 'claim' | 'finish'>;
  /** Where a run's end is recorded: this replica's queue, which claims the replica's next runs in the same statement. */
  runQueue: Pick<RunQueue, 'finish'>;
  events: RunEventRepository;
  hub: RunStreamHub;
  owner: string;
  logger: Logger;
  tracing?: RunTracing;
  webhook?: WebhookSender;
  /** This deployment's public URL (checkpoint metadata `langgraph_api_url`). */
  apiUrl?: string;
}

// A drain LangGraph ended at a superstep boundary (isGraphDrained is absent before @langchain/langgraph 1.4.0).
const drained = (err: unknown): boolean => typeof isGraphDrained === 'function' && isGraphDrained(err);

type Outcome =
  | {
      kind: 'ended';
      status: Exclude<RunStatus, 'pending' | 'running'>;
      error?: { error: string; message: string };
      /** The state the run left (JSON), when the stream stopped before its last `values` event reached the log. */
      finalValues?: string;
    }
  | { kind: 'rollback' }
  | { kind: 'handed-back' }
  | { kind: 'lost' };

const errorRecord = (err: unknown) => ({
  error: err instanceof Error ? err.name : 'Error',
  message: err instanceof Error ? err.message : String(err),
});

const FINISH_RETRIES_MS = [200, 1_000, 3_000];

/** The database (or another dependency) went away under the run: a `ServiceUnavailableError`, possibly wrapped. */
function isDependencyDown(err: unknown, depth = 0): boolean {
  if (err instanceof UnavailableError || isDatabaseUnavailable(err)) return true;
  const cause = (err as { cause?: unknown } | null | undefined)?.cause;
  return depth < 5 && cause !== undefined && cause !== err && isDependencyDown(cause, depth + 1);
}

/**
 * SQLSTATE classes 22 (data exception), 23 (integrity constraint) and 54 (program limit, e.g. a value too large or
 * too deep): the same write would fail the same way.
 */
function isRefusedData(err: unknown): boolean {
  const code = (err as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' && /^(22|23|54)[0-9A-Z]{3}$/.test(code);
}

/**
 * Executes one claimed run: streams the graph with the run's modes into its event log, then records how it
 * ended (run status and output, thread status and cached state) in one statement, or hands it back, or
 * deletes it (rollback).
 */
export class RunExecutor {
  constructor(private readonly deps: RunExecutorDeps) {}

  /** Executes the run to its end here; says how many runs wait on its thread (the replica then claims). */
  async execute(active: ActiveRun): Promise<RunExit> {
    const { run } = active;
    const started = Date.now();
    const firstSeq = run.attempt > 1 ? await this.deps.events.nextSeq(run.run_id) : 0;
    const log = this.deps.hub.openLog(run.run_id, firstSeq, run.thread_id);
    try {
      return await this.executeWith(active, log, started);
    } finally {
      // Whatever went wrong, readers here must not wait on a log nobody writes: the run itself will be swept.
      if (this.deps.hub.localLog(run.run_id) === log) this.deps.hub.closeLog(log, undefined);
    }
  }

  private async executeWith(active: ActiveRun, log: RunEventLog, started: number): Promise<RunExit> {
    const { run, signal, control } = active;
    const { kwargs } = run;
    log.append('metadata', { run_id: run.run_id, attempt: run.attempt });
    const saver = runSaver(run, this.deps.checkpointer);
    const mapper = new StreamMapper(kwargs.stream_mode);
    const graphId = String(kwargs.config.configurable['graph_id']);
    let graph: AgentGraph | undefined;
    let outcome: Outcome;
    let lastValuesJson: string | undefined;
    try {
      graph = await this.deps.registry.get(graphId, kwargs.config, { access: 'threads.create_run', context: kwargs.context });
      if (!saver) graph = withoutCheckpointer(graph);
      const { input, resuming } = await this.input(run);
      const options = graphStreamOptions({ run, saver, mapper, signal, control, resuming, tracing: this.deps.tracing, apiUrl: this.deps.apiUrl });
      for await (const event of graphEvents(graph, input, options, mapper, kwargs.stream_mode.includes('events'))) {
        const stored = log.append(event.event, event.data);
        // The root values event is the state the run ends with: keep its JSON rather than serialise it again.
        if (event.event === 'values' && event.data === mapper.lastValues) lastValuesJson = stored.data;
      }
      outcome = { kind: 'ended', status: 'success' };
    } catch (err) {
      const reason = signal.aborted ? (signal.reason as AbortReason) : undefined;
      if (drained(err) || reason === 'shutdown') outcome = { kind: 'handed-back' };
      else if (reason === 'lost') outcome = { kind: 'lost' };
      else if (reason === 'rollback') outcome = { kind: 'rollback' };
      else if (reason === 'interrupt') outcome = await this.cancelledOutcome(run, graph, saver);
      else if (isDependencyDown(err)) {
        // Not the run's fault: its lease lapses (nothing here renews it) and the sweeper hands it to a replica that
        // resumes it from its last checkpoint once the database is back.
        outcome = { kind: 'lost' };
        this.deps.logger.warn({ err, run_id: run.run_id, attempt: run.attempt }, 'run cut by a database outage; it resumes from its last checkpoint');
      } else {
        const error = errorRecord(err);
        log.append('error', error);
        outcome = { kind: 'ended', status: 'error', error };
        this.deps.logger.warn({ err, run_id: run.run_id, thread_id: run.thread_id, attempt: run.attempt }, 'run failed');
      }
    }
    if (this.deps.tracing) await this.deps.tracing.flush().catch((err: unknown) => this.deps.logger.warn({ err }, 'flushing traces failed'));
    if (saver instanceof RunCheckpointer) await saver.settled();

    switch (outcome.kind) {
      case 'lost':
        // Another replica holds the run now (it carries on), or the run was deleted with its thread.
        await log.drain();
        await this.discardIfThreadGone(run);
        this.deps.hub.closeLog(log, undefined);
        return NOTHING;
      case 'handed-back':
        await this.retrying(run, async () => this.deps.queue.release(run.run_id, this.deps.owner, await log.drain()));
        this.deps.hub.closeLog(log, undefined);
        this.deps.logger.info({ run_id: run.run_id, attempt: run.attempt }, 'run handed back to the queue');
        return NOTHING;
      case 'rollback':
        await log.drain();
        await this.retrying(run, () => this.deps.queue.rollback(run.run_id, run.thread_id, saver instanceof RunCheckpointer ? saver.written() : 'by-metadata'));
        await this.settleThreadAfterRollback(run, graph);
        this.deps.hub.closeLog(log, null);
        return { waiting: 1 };
      case 'ended':
        return this.end(active, outcome, mapper, graph, log, started, lastValuesJson);
    }
  }

  private async end(
    { run }: ActiveRun,
    outcome: Extract<Outcome, { kind: 'ended' }>,
    mapper: StreamMapper,
    graph: AgentGraph | undefined,
    log: RunEventLog,
    started: number,
    lastValuesJson: string | undefined,
  ): Promise<RunExit> {
    const temporary = run.kwargs.temporary;
    const interrupted = outcome.status === 'success' && mapper.interrupted;
    const valuesJson = mapper.lastValues === undefined ? outcome.finalValues : (lastValuesJson ?? serializeJson(mapper.lastValues));
    let threadState = valuesJson === undefined ? undefined : { values: valuesJson, interrupts: '{}' };
    let threadStatus: 'idle' | 'interrupted' | 'error' = outcome.status === 'error' ? 'error' : 'idle';
    if (interrupted && graph && !temporary) {
      // The state's pending interrupts and next nodes come from the checkpoint, as GET /threads/{id}/state shows them.
      const state = await this.threadState(run.thread_id, graph);
      if (state) {
        threadState = { values: state.values, interrupts: state.interrupts };
        if (state.pending) threadStatus = 'interrupted';
      }
    }
    let { status, error } = outcome;
    // What wait and join answer: the run's last `values` event, which is `{__interrupt__}` when it stopped on one
    // (with no interrupts for `interrupt_before` / `interrupt_after`).
    let output =
      outcome.status === 'error'
        ? JSON.stringify({ __error__: outcome.error })
        : interrupted
          ? serializeJson({ __interrupt__: mapper.interrupts })
          : (valuesJson ?? '{}');
    const events = await log.drain();
    const finish = (ending: Pick<RunFinish, 'status' | 'output' | 'threadStatus' | 'threadState'>) =>
      this.retrying(
        run,
        () => this.deps.runQueue.finish({ runId: run.run_id, owner: this.deps.owner, events, deleteThread: temporary, ...ending }),
        isRefusedData,
      );
    let result: RunEnded | undefined;
    try {
      result = await finish({ status, output, threadStatus, threadState: temporary ? undefined : threadState });
    } catch (err) {
      // The database refuses what the run left (it would refuse it again): the run ends in error saying so, instead
      // of being executed again each time its lease lapses.
      this.deps.logger.error({ err, run_id: run.run_id }, 'the database refused the end of a run; it ends in error');
      status = 'error';
      error = { error: 'RunEndRefused', message: `The database refused the run's result: ${errorRecord(err).message}` };
      output = JSON.stringify({ __error__: error });
      result = await finish({ status, output, threadStatus: 'error', threadState: undefined }).catch(() => undefined);
    }
    // Not ended here: another replica holds the run now (it carries on), or the run was deleted with its thread.
    const gone = result !== undefined && !result.ended && !result.exists;
    if (gone) await this.discardIfThreadGone(run);
    this.deps.hub.closeLog(log, result?.ended ? { status, output } : gone ? null : undefined);
    this.deps.logger.debug({ run_id: run.run_id, status, exec_ms: Date.now() - started }, 'run ended');
    if (run.kwargs.webhook && result?.ended && this.deps.webhook) {
      void this.deps.webhook(run.kwargs.webhook, {
        ...toRun(run),
        status,
        values: mapper.lastValues === undefined ? null : toJsonValue(mapper.lastValues),
        ...(error ? { error } : {}),
        run_started_at: new Date(started).toISOString(),
        run_ended_at: new Date().toISOString(),
      });
    }
    return { waiting: result?.waiting ?? 0 };
  }

  /**
   * A run whose thread was deleted while it executed went on writing checkpoints under the thread's id; nothing
   * would ever read or delete them. A thread that still exists (the run was only taken over) keeps everything.
   */
  private async discardIfThreadGone(run: RunRecord): Promise<void> {
    if (run.kwargs.temporary) return;
    try {
      const discarded = await this.deps.queue.discardOrphanCheckpoints(run.thread_id);
      if (discarded > 0) this.deps.logger.info({ run_id: run.run_id, thread_id: run.thread_id, checkpoints: discarded }, 'discarded checkpoints of a deleted thread');
    } catch (err) {
      this.deps.logger.warn({ err, run_id: run.run_id, thread_id: run.thread_id }, 'discarding checkpoints of a deleted thread failed');
    }
  }

  /** The run's input: on a retry that its own checkpoints already advanced, none (resume from the last one). */
  private async input(run: RunRecord): Promise<{ input: unknown; resuming: boolean }> {
    if (run.attempt > 1 && !run.kwargs.temporary && (await this.deps.queue.latestCheckpointRunId(run.thread_id)) === run.run_id) {
      return { input: null, resuming: true };
    }
    return { input: run.kwargs.command ? toCommand(run.kwargs.command) : (run.kwargs.input ?? null), resuming: false };
  }

  /**
   * A cancel (`interrupt`) that stopped the stream after the graph had finished: its last checkpoint, written by this
   * run, has nothing left to do, so the run succeeded (the thread holds its whole answer) and says so; otherwise it
   * was interrupted. The graph's own interrupts are not "finished": they end as they always do, through the stream.
   */
  private async cancelledOutcome(run: RunRecord, graph: AgentGraph | undefined, saver: unknown): Promise<Extract<Outcome, { kind: 'ended' }>> {
    const interrupted = { kind: 'ended', status: 'interrupted' } as const;
    if (!graph || !(saver instanceof RunCheckpointer)) return interrupted;
    try {
      await saver.settled();
      const snapshot = await graph.getState({ configurable: { thread_id: run.thread_id } });
      const finished = snapshot.next.length === 0 && snapshot.tasks.length === 0 && (snapshot.metadata as Record<string, unknown> | undefined)?.['run_id'] === run.run_id;
      return finished ? { kind: 'ended', status: 'success', finalValues: serializeJson(snapshot.values ?? {}) } : interrupted;
    } catch (err) {
      this.deps.logger.warn({ err, run_id: run.run_id }, 'reading the state of a cancelled run failed: it ends interrupted');
      return interrupted;
    }
  }

  private async threadState(threadId: string, graph: AgentGraph): Promise<CachedThreadState | undefined> {
    try {
      return await readThreadState(graph, threadId);
    } catch (err) {
      this.deps.logger.warn({ err, thread_id: threadId }, 'reading the thread state failed');
      return undefined;
    }
  }

  /** After a rollback (here or by a sweeper): the thread's status and cached state from its remaining checkpoints. */
  async refreshThread(threadId: string, graphId: string): Promise<void> {
    const graph = await this.deps.registry.get(graphId, { configurable: { thread_id: threadId } }, { access: 'threads.read' });
    const state = await this.threadState(threadId, graph);
    await this.deps.queue.settleThread(threadId, state?.waitingForInput ? 'interrupted' : 'idle', state);
  }

  private async settleThreadAfterRollback(run: RunRecord, graph: AgentGraph | undefined): Promise<void> {
    const state = graph ? await this.threadState(run.thread_id, graph) : undefined;
    await this.deps.queue
      .settleThread(run.thread_id, state?.waitingForInput ? 'interrupted' : 'idle', state)
      .catch((err: unknown) => this.deps.logger.warn({ err, thread_id: run.thread_id }, 'updating the thread after a rollback failed'));
  }

  // The final write must land, or the lease lapses and the run would be executed again. An error `isFinal` says
  // would recur is thrown at once, for the caller to record another end.
  private async retrying<T>(run: RunRecord, write: () => Promise<T>, isFinal: (err: unknown) => boolean = () => false): Promise<T | undefined> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await write();
      } catch (err) {
        if (isFinal(err)) throw err;
        if (attempt >= FINISH_RETRIES_MS.length) {
          this.deps.logger.error({ err, run_id: run.run_id }, 'recording the end of a run failed; its lease will lapse and it will be retried');
          return undefined;
        }
        await new Promise((resolve) => setTimeout(resolve, FINISH_RETRIES_MS[attempt]));
      }
    }
  }
}
