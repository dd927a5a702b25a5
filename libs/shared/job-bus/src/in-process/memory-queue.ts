import type { ResolvedConsumeOptions } from '../lib/consume-options.schema';
import type { RawDelivery } from '../lib/deliver-job';
import { DurableConflictError } from '../lib/job-bus.errors';
import type { JobBusLogger } from '../lib/job-bus.logger';

interface StoredMessage {
  seq: number;
  id: string;
  body: string;
  headers: Record<string, string>;
  publishedAt: Date;
  deliveries: number;
  /** Bumped on each delivery so settlements of a superseded delivery are ignored. */
  token: number;
  timer?: NodeJS.Timeout;
}

/** A consumer as the queue sees it: something with free slots that takes deliveries. */
export interface MemorySubscriber {
  hasCapacity(): boolean;
  deliver(delivery: RawDelivery): void;
}

type DurableSettings = Pick<ResolvedConsumeOptions, 'durable' | 'ackWaitMs' | 'maxDeliver'>;

/**
 * One queue in memory with JetStream work-queue semantics: a message lives until acked or
 * terminated, one durable per queue, ack-wait redelivery, delayed naks and max deliveries.
 */
export class MemoryQueue {
  private readonly unsettled = new Map<number, StoredMessage>();
  private readonly ready: StoredMessage[] = [];
  private readonly subscribers: MemorySubscriber[] = [];
  private readonly seenIds = new Map<string, number>();
  private durable?: DurableSettings;
  private seq = 0;
  private next = 0;
  private pumpScheduled = false;

  constructor(
    readonly name: string,
    private readonly duplicateWindowMs: number,
    private readonly logger: JobBusLogger,
  ) {}

  publish(id: string, body: string, headers: Record<string, string>): { duplicate: boolean } {
    const now = Date.now();
    for (const [seenId, expiresAt] of this.seenIds) if (expiresAt <= now) this.seenIds.delete(seenId);
    if (this.seenIds.has(id)) return { duplicate: true };
    this.seenIds.set(id, now + this.duplicateWindowMs);

    const message: StoredMessage = { seq: ++this.seq, id, body, headers, publishedAt: new Date(now), deliveries: 0, token: 0 };
    this.unsettled.set(message.seq, message);
    this.makeReady(message);
    return { duplicate: false };
  }

  /** Like creating a JetStream durable: same name updates the settings, another name is refused. */
  bindDurable(settings: DurableSettings): void {
    if (this.durable && this.durable.durable !== settings.durable) {
      throw new DurableConflictError(this.name, settings.durable, `durable "${this.durable.durable}" already consumes it`);
    }
    this.durable = settings;
  }

  subscribe(subscriber: MemorySubscriber): () => void {
    this.subscribers.push(subscriber);
    this.schedulePump();
    return () => {
      const index = this.subscribers.indexOf(subscriber);
      if (index >= 0) this.subscribers.splice(index, 1);
    };
  }

  /** Hands ready messages to subscribers with free slots, round robin. Deferred to avoid re-entrancy. */
  schedulePump(): void {
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    queueMicrotask(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  close(): void {
    for (const message of this.unsettled.values()) clearTimeout(message.timer);
    this.unsettled.clear();
    this.ready.length = 0;
    this.subscribers.length = 0;
  }

  private pump(): void {
    while (this.durable) {
      const subscriber = this.ready.length > 0 ? this.pickSubscriber() : undefined;
      const message = subscriber && this.ready.shift();
      if (!subscriber || !message) return;
      this.deliver(message, subscriber, this.durable);
    }
  }

  private pickSubscriber(): MemorySubscriber | undefined {
    for (let i = 0; i < this.subscribers.length; i++) {
      const candidate = this.subscribers[(this.next + i) % this.subscribers.length];
      if (candidate.hasCapacity()) {
        this.next = (this.next + i + 1) % this.subscribers.length;
        return candidate;
      }
    }
    return undefined;
  }

  private deliver(message: StoredMessage, subscriber: MemorySubscriber, settings: DurableSettings): void {
    message.deliveries += 1;
    const token = ++message.token;
    const current = () => message.token === token && this.unsettled.has(message.seq);
    const armAckTimer = () => {
      clearTimeout(message.timer);
      message.timer = setTimeout(() => current() && this.retry(message, 0, 'ack wait expired'), settings.ackWaitMs).unref();
    };
    armAckTimer();
    subscriber.deliver({
      id: message.id,
      attempt: message.deliveries,
      publishedAt: message.publishedAt,
      headers: { ...message.headers },
      decode: () => JSON.parse(message.body),
      ack: () => current() && this.remove(message),
      term: () => current() && this.remove(message),
      nak: (delayMs) => current() && this.retry(message, delayMs ?? 0, 'nak'),
      working: () => current() && armAckTimer(),
    });
  }

  private retry(message: StoredMessage, delayMs: number, cause: string): void {
    clearTimeout(message.timer);
    message.token += 1;
    const maxDeliver = this.durable?.maxDeliver;
    if (maxDeliver !== undefined && message.deliveries >= maxDeliver) {
      this.logger.error({ queue: this.name, jobId: message.id, attempt: message.deliveries, cause }, 'job-bus: max deliveries reached, dropping job');
      this.remove(message);
      return;
    }
    if (delayMs <= 0) return this.makeReady(message);
    message.timer = setTimeout(() => this.makeReady(message), delayMs).unref();
  }

  private remove(message: StoredMessage): void {
    clearTimeout(message.timer);
    this.unsettled.delete(message.seq);
  }

  private makeReady(message: StoredMessage): void {
    // Keep stream order, so redeliveries go before newer messages as on JetStream.
    const at = this.ready.findIndex((m) => m.seq > message.seq);
    this.ready.splice(at < 0 ? this.ready.length : at, 0, message);
    this.schedulePump();
  }
}
