import { serializeJson } from '@platform/agent-server-graphs';
import type { Logger } from '@platform/logging';
import { type RunEnd, type StoredEvent, eventsPayload, RUN_CHANNELS } from '@platform/agent-server-run-records';
import type { RunEventRepository } from './run-events.repository';

export interface RunEventLogOptions {
  events: RunEventRepository;
  logger: Logger;
  /** How long an event may wait before it is written (events in that window go in one INSERT). */
  flushMs: number;
  /** Events kept in memory for this replica's readers; older written ones are read from the database. */
  memoryLimit: number;
  /** Called after every append and at the end, so this replica's readers pick the events up at once. */
  onChange: () => void;
}

/** JSON text of an event's data; a value JSON cannot hold (a cycle) becomes an error record instead. */
function eventData(data: unknown): string {
  try {
    return serializeJson(data);
  } catch (err) {
    return JSON.stringify({ error: 'SerializationError', message: (err as Error).message });
  }
}

/**
 * The events of one run as it executes on this replica: numbered, kept in memory for local readers, and written
 * to `run_events` in batches (every `flushMs`, and whatever is left with the run's final update), each batch
 * announced with a NOTIFY so readers on other replicas fetch it.
 */
export class RunEventLog {
  private readonly memory: StoredEvent[] = [];
  private next: number;
  private written: number;
  private writes: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Set once the run ended here (undefined while it runs, or when it was handed back or deleted). */
  end: RunEnd | null | undefined = undefined;

  constructor(
    readonly runId: string,
    firstSeq: number,
    private readonly options: RunEventLogOptions,
  ) {
    this.next = firstSeq;
    this.written = firstSeq - 1;
  }

  get lastSeq(): number {
    return this.next - 1;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  append(event: string, data: unknown): StoredEvent {
    const stored = { seq: this.next++, event, data: eventData(data) };
    this.memory.push(stored);
    this.trim();
    if (!this.timer && !this.closed) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        void this.flush();
      }, this.options.flushMs);
    }
    this.options.onChange();
    return stored;
  }

  /**
   * Events after `cursor` held in memory. `fromDatabase` is set when events between `cursor` and the first of them
   * left memory already (they are written): read those from the database first.
   */
  after(cursor: number): { events: StoredEvent[]; fromDatabase: boolean } {
    const first = this.memory[0]?.seq ?? this.next;
    if (cursor + 1 < first) return { events: [], fromDatabase: true };
    return { events: this.memory.slice(Math.max(0, cursor + 1 - first)), fromDatabase: false };
  }

  /** Writes what is pending now; writes run one after another, and a failed one is retried with the next. */
  flush(): Promise<void> {
    this.writes = this.writes.then(() => this.writeBatch());
    return this.writes;
  }

  /** Stops batching and returns what is not written yet, for the run's final statement to write. */
  async drain(): Promise<StoredEvent[]> {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.writes;
    return this.unwritten();
  }

  private async writeBatch(): Promise<void> {
    const batch = this.unwritten();
    if (batch.length === 0) return;
    const last = batch[batch.length - 1].seq;
    try {
      await this.options.events.insert(this.runId, batch, { channel: RUN_CHANNELS.events, payload: eventsPayload(this.runId, last) });
      this.written = Math.max(this.written, last);
      this.trim();
    } catch (err) {
      this.options.logger.warn({ err, run_id: this.runId }, 'writing run events failed; retrying with the next batch');
    }
  }

  /** The final statement wrote everything; readers here now see the end. */
  finish(end: RunEnd | null): void {
    this.written = this.lastSeq;
    this.end = end;
    this.closed = true;
    this.options.onChange();
  }

  private unwritten(): StoredEvent[] {
    const first = this.memory[0]?.seq ?? this.next;
    return this.memory.slice(Math.max(0, this.written + 1 - first));
  }

  private trim(): void {
    const excess = this.memory.length - this.options.memoryLimit;
    if (excess <= 0) return;
    // Only written events may leave memory; readers find them in the database.
    const writtenInMemory = this.memory.findIndex((e) => e.seq > this.written);
    const removable = writtenInMemory === -1 ? this.memory.length : writtenInMemory;
    this.memory.splice(0, Math.min(excess, removable));
  }
}
