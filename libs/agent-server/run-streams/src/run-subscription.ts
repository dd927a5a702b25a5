import { isFinished, type StoredEvent, type RunRepository } from '@platform/agent-server-run-records';
import type { RunEventLog } from './run-event-log';
import type { RunEventRepository } from './run-events.repository';

const PAGE = 500;

export interface SubscriptionSource {
  /** The run's log when it executes on this replica. */
  localLog(runId: string): RunEventLog | undefined;
  events: RunEventRepository;
  runs: RunRepository;
  unsubscribe(subscription: RunSubscription): void;
}

/**
 * One reader of a run's events, from `cursor` on, until the run ends (or is deleted). Events come from the run's
 * log in memory when it executes here, else from `run_events`; the hub wakes the reader on every local append and
 * on every NOTIFY about the run, so nothing is polled.
 */
export class RunSubscription implements AsyncIterableIterator<StoredEvent> {
  private readonly buffer: StoredEvent[] = [];
  private done = false;
  private failure: unknown;
  private pulling = false;
  private again = false;
  private checkEnd = true;
  private waiter: (() => void) | undefined;

  constructor(
    readonly runId: string,
    private cursor: number,
    private readonly source: SubscriptionSource,
  ) {}

  /** New events may exist; `checkEnd`: the run may also have ended (or been handed back, or deleted). */
  wake(checkEnd = false): void {
    if (this.done) return;
    if (checkEnd) this.checkEnd = true;
    if (this.pulling) {
      this.again = true;
      return;
    }
    void this.pull();
  }

  async next(): Promise<IteratorResult<StoredEvent>> {
    for (;;) {
      const event = this.buffer.shift();
      if (event) return { value: event, done: false };
      if (this.failure) throw this.failure;
      if (this.done) return { value: undefined, done: true };
      await new Promise<void>((resolve) => {
        this.waiter = resolve;
      });
    }
  }

  async return(): Promise<IteratorResult<StoredEvent>> {
    this.close();
    return { value: undefined, done: true };
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  close(): void {
    this.done = true;
    this.source.unsubscribe(this);
    this.signal();
  }

  private signal(): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.();
  }

  private push(events: StoredEvent[]): void {
    for (const event of events) {
      if (event.seq <= this.cursor) continue;
      this.buffer.push(event);
      this.cursor = event.seq;
    }
  }

  private async pull(): Promise<void> {
    this.pulling = true;
    try {
      do {
        this.again = false;
        await this.pullOnce();
        this.signal();
      } while (this.again && !this.done);
    } catch (err) {
      this.failure = err;
      this.close();
    } finally {
      this.pulling = false;
    }
  }

  private async pullOnce(): Promise<void> {
    const log = this.source.localLog(this.runId);
    if (log) {
      const { events, fromDatabase } = log.after(this.cursor);
      if (fromDatabase) {
        this.push(await this.source.events.after(this.runId, this.cursor, PAGE));
        this.again = true;
        return;
      }
      this.push(events);
      if (log.end !== undefined && this.cursor >= log.lastSeq) this.close();
      return;
    }
    // Executed elsewhere, not started, or over: the database has every event announced so far.
    for (;;) {
      const page = await this.source.events.after(this.runId, this.cursor, PAGE);
      this.push(page);
      if (page.length < PAGE) break;
    }
    if (!this.checkEnd) return;
    this.checkEnd = false;
    const end = await this.source.runs.end(this.runId);
    if (end && !isFinished(end.status)) return;
    // Ended: events written with the final update came before the status, so one last read finds them all.
    this.push(await this.source.events.after(this.runId, this.cursor, 100_000));
    this.close();
  }
}
