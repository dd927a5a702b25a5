import type { CancelAction, CreatedRun, RunRecord } from '@platform/agent-server-run-records';
import type { RunFinish } from './run-queue.repository';

/** The lease a new run gets when it starts on this replica at once. */
export interface RunStart {
  owner: string;
  leaseMs: number;
}

/** What ending a run did: whether it ended here, how many runs wait on its thread, whether the run still exists. */
export interface RunEnded {
  ended: boolean;
  waiting: number;
  exists: boolean;
}

/**
 * This replica's run queue: the one way runs enter execution here and leave it, with the fast path behind it. A run
 * created while a slot is free (and no queued run comes first) starts here at once, leased in the statement that
 * inserts it; a run that ends here hands the slot it frees (and any other free one) to queued runs in the statement
 * that ends it. Every other run waits in the shared queue (Postgres) for whichever replica claims it first.
 */
export interface RunQueue {
  /** Listens for queue and cancel signals and starts claiming, heartbeats and sweeps. */
  start(): Promise<void>;
  /** Stops claiming; runs executing here go back to the queue for another replica to resume. */
  stop(): Promise<void>;
  /**
   * Adds a new run, due in `afterMs`: `insert` writes it, as running and leased to this replica when given `startAs`
   * (a slot is held for it meanwhile), else pending. Returns the run `insert` wrote.
   */
  submit(afterMs: number, insert: (startAs: RunStart | undefined) => Promise<CreatedRun>): Promise<RunRecord>;
  /** Records the end of a run executing here (RunQueueRepository.finish), claiming this replica's next runs with it. */
  finish(finish: RunFinish): Promise<RunEnded>;
  /** Stops a run executing here; false when it does not (its replica gets the cancel by NOTIFY). */
  cancelLocal(runId: string, action: CancelAction): boolean;
}
