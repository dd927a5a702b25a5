import type { z } from 'zod';
import type { QueueDefinition } from './define-queue';

/** Options of one `publish` call. */
export interface PublishOptions {
  /** Dedupe id: a second publish with the same id inside the duplicate window is dropped. Becomes `job.id`. */
  msgId?: string;
  headers?: Record<string, string>;
}

/** Outcome of `publish`. */
export interface PublishResult {
  /** The job id (the `msgId` given, else a generated UUID). */
  id: string;
  /** True when the bus dropped the message as a duplicate of an earlier `msgId`. */
  duplicate: boolean;
}

/** Options of one `consume` call; the durable's settings are shared by every replica that uses it. */
export interface ConsumeOptions {
  /** Durable consumer name; replicas using the same name share the work. */
  durable: string;
  /** Most jobs this process runs at once for this consumer (default 1). */
  concurrency?: number;
  /** Time a delivery may stay unsettled (without `working()`) before it is redelivered (default 30 s). */
  ackWaitMs?: number;
  /** Deliveries before a job is given up (default unlimited). */
  maxDeliver?: number;
  /** Retry delay when a handler throws (default 5 s). */
  defaultNakDelayMs?: number;
}

/** One delivery of a job to a handler. Settle it once; later calls are ignored. */
export interface Job<T> {
  readonly id: string;
  readonly queue: string;
  readonly data: T;
  /** 1-based delivery count. */
  readonly attempt: number;
  readonly publishedAt: Date;
  readonly headers: Readonly<Record<string, string>>;
  ack(): void;
  /** Hands the job back for redelivery after `delayMs` (immediately when omitted). */
  nak(delayMs?: number): void;
  /** Gives the job up for good. */
  term(reason?: string): void;
  /** Restarts the ack-wait clock; long jobs call it before `ackWaitMs` runs out. */
  working(): void;
}

/** Returning without settling acks the job; throwing naks it with `defaultNakDelayMs`. */
export type JobHandler<T> = (job: Job<T>) => Promise<void> | void;

/** A running consumer. */
export interface Consumer {
  readonly queue: string;
  readonly durable: string;
  /** Stops taking jobs and resolves once in-flight handlers have finished. */
  stop(): Promise<void>;
  /** True while the consumer runs and its bus is connected. */
  ready(): Promise<boolean>;
}

/** The job bus: one interface, a JetStream and an in-process implementation. */
export interface JobBus {
  readonly kind: 'jetstream' | 'in-process';
  /** Creates or updates the queue's storage; `publish` and `consume` call it on first use. */
  ensureQueue(queue: QueueDefinition): Promise<void>;
  /** Validates and publishes; rejects with `JobPayloadError` (nothing published) on a bad payload. */
  publish<S extends z.ZodType>(queue: QueueDefinition<S>, payload: z.input<S>, opts?: PublishOptions): Promise<PublishResult>;
  /** Starts a consumer; rejects with `DurableConflictError` when the queue already has another durable. */
  consume<S extends z.ZodType>(queue: QueueDefinition<S>, handler: JobHandler<z.output<S>>, opts: ConsumeOptions): Promise<Consumer>;
  /** True while the bus can publish and consume (for `/ready`). */
  ready(): Promise<boolean>;
  /**
   * False only once the bus can never work again (its connection closed for good without `close()`), so liveness
   * (`/ok`) fails and the process is restarted. An outage it reconnects from keeps it live.
   */
  live(): boolean;
  /** Throws `ServiceUnavailableError` naming the job queue while it is unreachable (a request that needs it answers 503). */
  requireConnection(): void;
  /** Stops every consumer (waiting for in-flight handlers) and releases the connection. */
  close(): Promise<void>;
}
