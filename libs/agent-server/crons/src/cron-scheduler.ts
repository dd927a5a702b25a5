import type { Logger } from '@platform/logging';
import type { Cron } from './cron';
import { nextRunAfter } from './cron-schedule';
import type { CronRepository } from './crons.repository';

/** Where a firing's run goes: the cron's thread, or (`null`) a new thread of its own. Same shape as the runs' target. */
export type CronRunTarget = { threadId: string } | { threadId: null };

/** The run request a firing makes: the cron's payload with its assistant, metadata and, stateless, `on_completion`. */
export interface CronRunRequest {
  assistant_id: string;
  metadata: Record<string, unknown>;
  on_completion?: 'delete' | 'keep';
  [field: string]: unknown;
}

/** Creates a run (the runs service's `create`, with the request validated as any run request). */
export type CreateCronRun = (target: CronRunTarget, request: CronRunRequest) => Promise<{ run_id: string; thread_id: string }>;

export interface CronFiring {
  cron_id: string;
  run_id?: string;
  thread_id?: string;
  error?: string;
}

export interface CronSchedulerOptions {
  crons: CronRepository;
  createRun: CreateCronRun;
  logger: Logger;
  /** How often due crons are looked for (default 10 s). */
  intervalMs?: number;
  /** Crons claimed per transaction (default 50). */
  batchSize?: number;
}

/** The run request of one firing. */
export function firingRequest(cron: Cron): { target: CronRunTarget; request: CronRunRequest } {
  const metadata = { ...(cron.payload['metadata'] as Record<string, unknown> | undefined), cron_id: cron.cron_id };
  const request: CronRunRequest = { ...cron.payload, assistant_id: cron.assistant_id, metadata };
  if (cron.thread_id === null) return { target: { threadId: null }, request: { ...request, on_completion: cron.on_run_completed ?? 'delete' } };
  return { target: { threadId: cron.thread_id }, request };
}

/**
 * Fires due crons. Every replica may run one: a firing is claimed with its `next_run_date` advanced in one
 * transaction (FOR UPDATE SKIP LOCKED), so each firing makes one run whatever the replicas do. The run is created
 * after that commit, so a replica dying in between loses that one firing rather than running it twice. A firing
 * whose run cannot be created (its thread busy under `reject`, ...) is logged and skipped; missed firings (the
 * server was down) are not caught up: the next run is the schedule's next time after now.
 */
export class CronScheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<CronFiring[]> | undefined;
  /** The timer loop runs (between start and stop). */
  private started = false;
  /** stop() was called: a pass in progress ends after its current batch. */
  private stopping = false;

  constructor(private readonly options: CronSchedulerOptions) {}

  start(): void {
    if (this.started) return;
    this.started = true;
    this.stopping = false;
    this.schedule(0);
  }

  /** Stops looking for due crons and waits for the firings in progress. */
  async stop(): Promise<void> {
    this.started = false;
    this.stopping = true;
    clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** One pass: claims and fires due crons until none is left; returns what it fired. */
  tick(): Promise<CronFiring[]> {
    this.running ??= this.fireDue().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private schedule(delayMs: number): void {
    if (!this.started) return;
    this.timer = setTimeout(() => {
      void this.tick()
        .catch((err: unknown) => this.options.logger.warn({ err }, 'looking for due crons failed'))
        .finally(() => this.schedule(this.options.intervalMs ?? 10_000));
    }, delayMs);
    this.timer.unref();
  }

  private async fireDue(): Promise<CronFiring[]> {
    const batchSize = this.options.batchSize ?? 50;
    const fired: CronFiring[] = [];
    for (;;) {
      const claimed = await this.options.crons.claimDue(batchSize, (cron, now) =>
        nextRunAfter(cron.schedule, { after: now, timezone: cron.timezone, endTime: cron.end_time ? new Date(cron.end_time) : null }),
      );
      for (const cron of claimed) fired.push(await this.fire(cron));
      if (claimed.length < batchSize || this.stopping) return fired;
    }
  }

  private async fire(cron: Cron): Promise<CronFiring> {
    const { target, request } = firingRequest(cron);
    try {
      const run = await this.options.createRun(target, request);
      this.options.logger.info({ cron_id: cron.cron_id, run_id: run.run_id, thread_id: run.thread_id }, 'cron fired');
      return { cron_id: cron.cron_id, run_id: run.run_id, thread_id: run.thread_id };
    } catch (err) {
      this.options.logger.warn({ err, cron_id: cron.cron_id }, 'cron firing could not create its run; skipped');
      return { cron_id: cron.cron_id, error: err instanceof Error ? err.message : String(err) };
    }
  }
}
