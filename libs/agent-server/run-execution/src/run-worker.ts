import { RunControl } from '@langchain/langgraph';
import type { Notifications } from '@platform/prisma';
import type { Logger } from '@platform/logging';
import { type CancelAction, type CreatedRun, type RunRecord, RUN_CHANNELS, parseEventSignal } from '@platform/agent-server-run-records';
import type { AbortReason, RunExecutor, RunExit } from './run-executor';
import type { RunSweeper } from './run-sweeper';
import type { RunFinish, RunQueueRepository } from './run-queue.repository';
import type { RunEnded, RunQueue, RunStart } from './run-queue';

export interface RunWorkerOptions {
  queue: RunQueueRepository;
  executor: RunExecutor;
  sweeper: RunSweeper;
  notifications: Notifications;
  logger: Logger;
  /** This replica's lease owner id. */
  owner: string;
  /** Runs executed at once on this replica (N_JOBS_PER_WORKER). */
  concurrency: number;
  leaseMs: number;
  heartbeatMs: number;
  /** Safety net: claim even without a NOTIFY this often (delayed runs become due without one). */
  pollMs: number;
  /** How often expired leases are looked for. */
  sweepMs: number;
  /** How long a shutdown lets runs reach a superstep boundary before stopping them. */
  shutdownGraceMs: number;
}

/** Own queued runs remembered for `claim`'s preference. */
const OWN_REMEMBERED = 256;
/**
 * How many more of its oldest own queued runs than it has slots to fill a claim prefers (the rest wait their turn at
 * the front): the claim looks each one up, so preferring them all made every claim cost as much as the backlog.
 */
const OWN_PREFERRED_BEYOND_LIMIT = 16;

interface Slot {
  launchedAt: number;
  abort: AbortController;
  /** None with a deployment's LangGraph older than 1.4.0 (no RunControl): its stop aborts after the grace period. */
  control?: RunControl;
  done: Promise<void>;
}

// LangGraph's RunControl (a drain at the next superstep boundary) first shipped in @langchain/langgraph 1.4.0; the
// server runs on the deployment's own copy, which may be older.
const newRunControl = (): RunControl | undefined => (typeof RunControl === 'function' ? new RunControl() : undefined);

/**
 * Runs this replica executes: at most `concurrency` at once, claimed from the shared queue when a slot is free
 * and a NOTIFY (or a poll) says work may be waiting, kept with lease heartbeats, and stopped on cancel requests.
 * A run created here with a free slot starts at once, without a trip through the queue; a run ending here claims
 * the next ones in the statement that ends it (the fast path of RunQueue).
 */
export class RunWorker implements RunQueue {
  private readonly active = new Map<string, Slot>();
  /** Runs claimed by the statement that ended a run here, launched once that run's executor returned. */
  private readonly claimedOnEnd = new Map<string, RunRecord[]>();
  /**
   * Runs created here that went to the queue (no slot was free), oldest first: claimed here before other replicas'
   * runs, so those waiting on them here are answered without a NOTIFY and a read. A hint only, bounded: a run
   * another replica took stays until it ends there (its `d` NOTIFY) or is pushed out.
   */
  private readonly own = new Set<string>();
  private reserved = 0;
  private claiming = false;
  private claimAgain = false;
  /** The last claim filled every free slot, or work was announced while none was free: claim when one frees up. */
  private backlog = true;
  private stopped = false;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly unlisten: (() => Promise<void>)[] = [];

  constructor(private readonly options: RunWorkerOptions) {}

  async start(): Promise<void> {
    const { notifications } = this.options;
    this.unlisten.push(
      await notifications.listen(RUN_CHANNELS.queue, { onNotify: () => this.poke(), onReconnect: () => this.poke() }),
      await notifications.listen(RUN_CHANNELS.cancel, {
        onNotify: (payload) => {
          const [runId, action] = payload.split(' ');
          if (runId && (action === 'interrupt' || action === 'rollback')) this.cancelLocal(runId, action);
        },
      }),
      // An own run that ended elsewhere (another replica took it, or it was cancelled) is forgotten: every id the
      // claim prefers costs it a lookup, and such runs would otherwise stay until pushed out.
      await notifications.listen(RUN_CHANNELS.events, {
        onNotify: (payload) => {
          const signal = payload.startsWith('d ') ? parseEventSignal(payload) : undefined;
          if (signal) this.own.delete(signal.runId);
        },
      }),
    );
    const every = (ms: number, fn: () => void) => {
      const timer = setInterval(fn, ms);
      timer.unref();
      this.timers.push(timer);
    };
    every(this.options.heartbeatMs, () => void this.heartbeat());
    every(this.options.pollMs, () => this.poke());
    every(this.options.sweepMs, () => void this.options.sweeper.sweep());
    this.poke();
  }

  async submit(afterMs: number, insert: (startAs: RunStart | undefined) => Promise<CreatedRun>): Promise<RunRecord> {
    const reserved = afterMs <= 0 && this.tryReserve();
    let created: CreatedRun;
    try {
      created = await insert(reserved ? { owner: this.options.owner, leaseMs: this.options.leaseMs } : undefined);
    } catch (err) {
      if (reserved) this.unreserve();
      throw err;
    }
    if (created.started) this.startReserved(created.run);
    else {
      if (reserved) this.unreserve();
      if (afterMs > 0) this.wakeAt(afterMs);
      else {
        this.remember(created.run.run_id);
        if (!created.behindThread) this.poke();
      }
    }
    return created.run;
  }

  async finish(finish: RunFinish): Promise<RunEnded> {
    // The slot the run frees (and any other free one) goes to queued runs in the same statement.
    const claim = this.active.has(finish.runId) && this.backlog && !this.stopped ? this.options.concurrency - this.active.size - this.reserved + 1 : 0;
    const { claimed, ...ended } = await this.options.queue.finish(finish, claim > 0 ? { limit: claim, leaseMs: this.options.leaseMs, prefer: this.preferred(claim) } : undefined);
    if (claimed.length > 0) this.claimedOnEnd.set(finish.runId, claimed);
    return ended;
  }

  /** The own queued runs a claim of `limit` runs prefers: the oldest, a few more than it can take. */
  private preferred(limit: number): string[] {
    const ids: string[] = [];
    for (const id of this.own) {
      if (ids.length >= limit + OWN_PREFERRED_BEYOND_LIMIT) break;
      ids.push(id);
    }
    return ids;
  }

  /** A run created here went to the queue: this replica prefers it when it claims. */
  private remember(runId: string): void {
    this.own.add(runId);
    if (this.own.size > OWN_REMEMBERED) this.own.delete(this.own.values().next().value as string);
  }

  /** Holds a slot for a run about to be created here; false when none is free or queued runs come first. */
  private tryReserve(): boolean {
    if (this.stopped || this.backlog || this.active.size + this.reserved >= this.options.concurrency) return false;
    this.reserved++;
    return true;
  }

  /** Gives back a reserved slot the new run did not use (it was queued, or its creation failed). */
  private unreserve(): void {
    this.reserved = Math.max(0, this.reserved - 1);
  }

  /** Executes a run created here as running (its slot was reserved). */
  private startReserved(run: RunRecord): void {
    this.unreserve();
    this.launch(run);
  }

  /** A pending run becomes due later: claim then (the poll would find it too, later). */
  private wakeAt(afterMs: number): void {
    const timer = setTimeout(() => this.poke(), afterMs + 5);
    timer.unref();
  }

  /** Work may be waiting in the queue. */
  private poke(): void {
    if (this.stopped) return;
    if (this.active.size + this.reserved >= this.options.concurrency) {
      this.backlog = true;
      return;
    }
    if (this.claiming) {
      this.claimAgain = true;
      return;
    }
    void this.claimLoop();
  }

  /** Stops a run executing here; false when it is not. */
  cancelLocal(runId: string, action: CancelAction): boolean {
    const slot = this.active.get(runId);
    if (!slot) return false;
    if (!slot.abort.signal.aborted) slot.abort.abort(action satisfies AbortReason);
    return true;
  }

  isExecuting(runId: string): boolean {
    return this.active.has(runId);
  }

  /**
   * Stops claiming; running runs stop at their next superstep boundary (or after `shutdownGraceMs`) and go back
   * to the queue, leases released, for another replica to resume from their last checkpoint.
   */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    await Promise.all(this.unlisten.map((fn) => fn().catch(() => undefined)));
    const slots = [...this.active.values()];
    for (const slot of slots) slot.control?.requestDrain();
    const all = Promise.all(slots.map((slot) => slot.done));
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.options.shutdownGraceMs);
    });
    if ((await Promise.race([all, grace])) === 'timeout') {
      for (const slot of this.active.values()) if (!slot.abort.signal.aborted) slot.abort.abort('shutdown' satisfies AbortReason);
      await all;
    }
    clearTimeout(timer);
  }

  private launch(run: RunRecord): void {
    this.own.delete(run.run_id);
    const abort = new AbortController();
    const control = newRunControl();
    const done = this.options.executor
      .execute({ run, signal: abort.signal, control })
      .catch((err: unknown): RunExit => {
        this.options.logger.error({ err, run_id: run.run_id }, 'run executor failed');
        return { waiting: 0 };
      })
      .then(({ waiting }) => {
        this.active.delete(run.run_id);
        const claimed = this.claimedOnEnd.get(run.run_id) ?? [];
        this.claimedOnEnd.delete(run.run_id);
        for (const next of claimed) this.launch(next);
        // Slots still free (fewer runs were queued than asked for) find out whether the queue is empty now.
        if (this.backlog || waiting > 0 || claimed.length > 0) this.poke();
      });
    this.active.set(run.run_id, { launchedAt: Date.now(), abort, control, done });
  }

  private async claimLoop(): Promise<void> {
    this.claiming = true;
    try {
      do {
        this.claimAgain = false;
        const free = this.options.concurrency - this.active.size - this.reserved;
        if (free <= 0 || this.stopped) {
          this.backlog = true;
          break;
        }
        const runs = await this.options.queue.claim(this.options.owner, free, this.options.leaseMs, this.preferred(free));
        this.backlog = runs.length === free;
        for (const run of runs) this.launch(run);
        if (this.backlog) this.claimAgain = true;
      } while (this.claimAgain && !this.stopped);
    } catch (err) {
      this.options.logger.warn({ err }, 'claiming runs failed; retrying on the next signal or poll');
    } finally {
      this.claiming = false;
    }
  }

  private async heartbeat(): Promise<void> {
    if (this.active.size === 0) return;
    // A run claimed while the heartbeat is under way may be missing from its answer without being lost.
    const asked = Date.now();
    try {
      const held = await this.options.queue.heartbeat(this.options.owner, this.options.leaseMs, [...this.active.keys()]);
      const byId = new Map(held.map((h) => [h.runId, h.cancelAction]));
      for (const [runId, slot] of this.active) {
        if (slot.abort.signal.aborted || slot.launchedAt >= asked) continue;
        if (!byId.has(runId)) slot.abort.abort('lost' satisfies AbortReason);
        else {
          const action = byId.get(runId);
          if (action) slot.abort.abort(action satisfies AbortReason);
        }
      }
    } catch (err) {
      this.options.logger.warn({ err }, 'lease heartbeat failed');
    }
  }
}
