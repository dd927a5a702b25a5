import type { Logger } from '@platform/logging';
import { RUN_CHANNELS, donePayload } from '@platform/agent-server-run-records';
import type { RunEventRepository } from '@platform/agent-server-run-streams';
import { attemptsExhausted, type ExpiredRun, type RunQueueRepository } from './run-queue.repository';
import type { Notifications } from '@platform/prisma';

export interface RunSweeperOptions {
  queue: RunQueueRepository;
  events: RunEventRepository;
  notifications: Notifications;
  logger: Logger;
  maxAttempts: number;
  /** How long events (and stateless runs) are kept after a run ended. */
  retentionMs: number;
  /** How often the retention delete runs (default a minute). */
  retentionSweepMs?: number;
  /** Brings a thread's cached state up to date after a rollback removed checkpoints. */
  refreshThread(threadId: string, graphId: string): Promise<void>;
}

/**
 * Recovers runs whose replica died (their lease lapsed): each goes back to the queue to resume from its last
 * checkpoint, or ends `error` once it used up its attempts, or gets the cancel that was waiting for it. Also drops
 * events and stateless runs past their retention. Any replica may sweep; rows are claimed with SKIP LOCKED.
 */
export class RunSweeper {
  private sweeping = false;
  private lastRetentionSweep = 0;

  constructor(private readonly options: RunSweeperOptions) {}

  async sweep(): Promise<ExpiredRun[]> {
    if (this.sweeping) return [];
    this.sweeping = true;
    try {
      const expired = await this.options.queue.sweepExpired(this.options.maxAttempts);
      for (const item of expired) await this.settle(item);
      await this.sweepRetention();
      return expired;
    } catch (err) {
      this.options.logger.warn({ err }, 'sweeping expired runs failed');
      return [];
    } finally {
      this.sweeping = false;
    }
  }

  private async settle({ run, outcome }: ExpiredRun): Promise<void> {
    const { queue, events, notifications, logger } = this.options;
    const graphId = String(run.kwargs.config.configurable['graph_id']);
    logger.warn({ run_id: run.run_id, attempt: run.attempt, outcome }, 'run lease expired: its replica is gone');
    if (outcome === 'requeued') return;
    if (outcome === 'rollback') {
      await queue.rollback(run.run_id, run.thread_id, 'by-metadata');
      await this.options.refreshThread(run.thread_id, graphId).catch((err: unknown) => logger.warn({ err }, 'refreshing a thread failed'));
      return;
    }
    if (outcome === 'failed') {
      const seq = await events.nextSeq(run.run_id);
      const { __error__: error } = JSON.parse(attemptsExhausted(run, this.options.maxAttempts)) as { __error__: unknown };
      await events.insert(run.run_id, [{ seq, event: 'error', data: JSON.stringify(error) }]);
    }
    if (!run.temporary_thread) await queue.settleThread(run.thread_id, outcome === 'failed' ? 'error' : 'idle');
    await notifications.notify(RUN_CHANNELS.events, donePayload(run.run_id));
  }

  private async sweepRetention(): Promise<void> {
    // Less often than lease sweeps: the deletes scan an index and need not run every few seconds.
    if (Date.now() - this.lastRetentionSweep < (this.options.retentionSweepMs ?? 60_000)) return;
    this.lastRetentionSweep = Date.now();
    const deleted = await this.options.events.sweep(this.options.retentionMs);
    if (deleted > 0) this.options.logger.debug({ deleted }, 'run events past retention deleted');
  }
}
