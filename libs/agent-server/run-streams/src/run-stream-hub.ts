import type { Notifications } from '@platform/prisma';
import type { Logger } from '@platform/logging';
import { isFinished, type RunEnd, parseEventSignal, RUN_CHANNELS, type RunRepository } from '@platform/agent-server-run-records';
import { RunEventLog } from './run-event-log';
import type { RunEventRepository } from './run-events.repository';
import { RunSubscription } from './run-subscription';

export interface RunStreamHubOptions {
  runs: RunRepository;
  events: RunEventRepository;
  notifications: Notifications;
  logger: Logger;
  flushMs: number;
  memoryLimit?: number;
  /** How often readers and waiters of runs executing elsewhere re-check, in case a NOTIFY was missed. */
  safetyCheckMs?: number;
}

/** How many recent run ends a hub remembers; far more than can end between a run's creation and its wait. */
const ENDED_REMEMBERED = 10_000;

/** Where a subscription starts: after this seq, or with the next event only (`live`). */
export type SubscribeFrom = number | 'live';

/**
 * This replica's view of run streams: the logs of runs executing here, the readers of any run (wherever it
 * executes), and those waiting for runs to end. Readers of local runs are woken on every append; readers of
 * other runs on every NOTIFY about them.
 */
export class RunStreamHub {
  private readonly logs = new Map<string, RunEventLog>();
  private readonly readers = new Map<string, Set<RunSubscription>>();
  private readonly waiters = new Map<string, Set<(end: RunEnd | null) => void>>();
  private readonly threadWatchers = new Map<string, Set<() => void>>();
  /** run id → thread id, for runs signalled while someone watches a thread (bounded). */
  private readonly runThreads = new Map<string, string>();
  /**
   * Runs this replica lately saw end: announced by NOTIFY or closed here (bounded, oldest dropped first). A waiter
   * for a run it just created can register after the end (another replica, or this one, claimed and finished the
   * run before the creating request went on); it then asks the database instead of waiting for a signal that
   * already came.
   */
  private readonly ended = new Set<string>();
  private unlisten: (() => Promise<void>) | undefined;
  private safetyTimer: NodeJS.Timeout | undefined;
  /** Set by `stop()`: open-ended readers (thread streams) end too. */
  stopped = false;

  constructor(private readonly options: RunStreamHubOptions) {}

  async start(): Promise<void> {
    this.unlisten = await this.options.notifications.listen(RUN_CHANNELS.events, {
      onNotify: (payload) => this.onSignal(payload),
      onReconnect: () => this.recheckAll(),
    });
    this.safetyTimer = setInterval(() => this.recheckAll(), this.options.safetyCheckMs ?? 10_000);
    this.safetyTimer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.safetyTimer);
    await this.unlisten?.();
    for (const set of this.readers.values()) for (const reader of set) reader.close();
    for (const set of this.threadWatchers.values()) for (const wake of set) wake();
  }

  /** A run starts executing here: its events get numbered from `firstSeq`. */
  openLog(runId: string, firstSeq: number, threadId?: string): RunEventLog {
    const log = new RunEventLog(runId, firstSeq, {
      events: this.options.events,
      logger: this.options.logger,
      flushMs: this.options.flushMs,
      memoryLimit: this.options.memoryLimit ?? 2_000,
      onChange: () => this.wakeReaders(runId, false),
    });
    this.logs.set(runId, log);
    this.wakeReaders(runId, true);
    if (threadId) this.wakeThread(threadId);
    return log;
  }

  /**
   * Calls `wake` whenever a run of the thread shows activity here or on another replica (it starts here, or its
   * events or end are announced); returns the function that stops watching.
   */
  watchThread(threadId: string, wake: () => void): () => void {
    let set = this.threadWatchers.get(threadId);
    if (!set) {
      set = new Set();
      this.threadWatchers.set(threadId, set);
    }
    set.add(wake);
    return () => {
      set.delete(wake);
      if (set.size === 0) this.threadWatchers.delete(threadId);
    };
  }

  /**
   * The run stopped executing here. `end`: how it ended (null: it was deleted); undefined: it was handed back to
   * the queue and continues elsewhere.
   */
  closeLog(log: RunEventLog, end: RunEnd | null | undefined): void {
    if (this.logs.get(log.runId) === log) this.logs.delete(log.runId);
    if (end !== undefined) {
      this.noteEnded(log.runId);
      log.finish(end);
      this.resolveWaiters(log.runId, end);
    }
    this.wakeReaders(log.runId, true);
  }

  localLog(runId: string): RunEventLog | undefined {
    return this.logs.get(runId);
  }

  /** Reads a run's events from `from` on until it ends; iterate it, and `return()` to stop early. */
  async subscribe(runId: string, from: SubscribeFrom): Promise<RunSubscription> {
    let cursor: number;
    if (from !== 'live') cursor = from;
    else cursor = this.logs.get(runId)?.lastSeq ?? (await this.options.events.nextSeq(runId)) - 1;
    const reader = new RunSubscription(runId, cursor, {
      localLog: (id) => this.logs.get(id),
      events: this.options.events,
      runs: this.options.runs,
      unsubscribe: (sub) => {
        const readers = this.readers.get(sub.runId);
        readers?.delete(sub);
        if (readers?.size === 0) this.readers.delete(sub.runId);
      },
    });
    let set = this.readers.get(runId);
    if (!set) {
      set = new Set();
      this.readers.set(runId, set);
    }
    set.add(reader);
    reader.wake(true);
    return reader;
  }

  /**
   * Resolves when the run ended: with its status and output, or null when it does not exist (any more). `fresh`:
   * the caller created the run a moment ago, so the database is asked only if this replica already saw it end.
   */
  waitForEnd(runId: string, options: { fresh?: boolean } = {}): Promise<RunEnd | null> {
    const log = this.logs.get(runId);
    if (log?.end !== undefined) return Promise.resolve(log.end);
    return new Promise((resolve) => {
      let set = this.waiters.get(runId);
      if (!set) {
        set = new Set();
        this.waiters.set(runId, set);
      }
      set.add(resolve);
      if (!log && (!options.fresh || this.ended.has(runId))) void this.checkWaiters(runId);
    });
  }

  private onSignal(payload: string): void {
    const signal = parseEventSignal(payload);
    if (!signal) return;
    const local = this.logs.has(signal.runId);
    if (signal.kind === 'done') this.noteEnded(signal.runId);
    this.wakeReaders(signal.runId, signal.kind === 'done');
    if (signal.kind === 'done' && !local) void this.checkWaiters(signal.runId);
    if (this.threadWatchers.size > 0) void this.noteRunActivity(signal.runId);
  }

  private noteEnded(runId: string): void {
    this.ended.add(runId);
    if (this.ended.size > ENDED_REMEMBERED) this.ended.delete(this.ended.values().next().value as string);
  }

  private wakeThread(threadId: string): void {
    for (const wake of this.threadWatchers.get(threadId) ?? []) wake();
  }

  // Only while threads are watched: which thread the signalled run belongs to (one lookup per run).
  private async noteRunActivity(runId: string): Promise<void> {
    let threadId = this.runThreads.get(runId);
    if (!threadId) {
      try {
        threadId = (await this.options.runs.threadOf(runId)) ?? undefined;
      } catch (err) {
        this.options.logger.warn({ err, run_id: runId }, 'looking up the thread of a run failed');
      }
      if (!threadId) return;
      if (this.runThreads.size >= 10_000) this.runThreads.delete(this.runThreads.keys().next().value as string);
      this.runThreads.set(runId, threadId);
    }
    this.wakeThread(threadId);
  }

  private wakeReaders(runId: string, checkEnd: boolean): void {
    for (const reader of this.readers.get(runId) ?? []) reader.wake(checkEnd);
  }

  private resolveWaiters(runId: string, end: RunEnd | null): void {
    const set = this.waiters.get(runId);
    this.waiters.delete(runId);
    for (const resolve of set ?? []) resolve(end);
  }

  private async checkWaiters(runId: string): Promise<void> {
    if (!this.waiters.has(runId)) return;
    try {
      const end = await this.options.runs.end(runId);
      if (!end || isFinished(end.status)) this.resolveWaiters(runId, end);
    } catch (err) {
      this.options.logger.warn({ err, run_id: runId }, 'checking whether a run ended failed');
    }
  }

  private recheckAll(): void {
    for (const runId of this.readers.keys()) if (!this.logs.has(runId)) this.wakeReaders(runId, true);
    for (const runId of this.waiters.keys()) if (!this.logs.has(runId)) void this.checkWaiters(runId);
  }
}
