/** Limits and timings of the export orchestration; every one is configurable (tests shrink them). */
export interface ExportSettings {
  /** Exports of one workspace that may be Running at once (15). */
  maxRunningExportsPerWorkspace: number;
  /** Runs (partitions) of one export that may be Running at once (45). */
  maxRunningRunsPerExport: number;
  /**
   * Runs of one workspace published and waiting for a worker at once (16): the job queue is shared, first come first
   * served, so this bounds how many of another workspace's jobs a workspace's next job can wait behind.
   */
  maxQueuedRunsPerWorkspace: number;
  /** Retries per run after its first attempt (20). */
  maxRetries: number;
  /** Fixed delay before a failed run is dispatched again (30 s). */
  retryDelayMs: number;
  /** One attempt of a run may take this long (4 h). */
  runTimeoutMs: number;
  /** A whole export may take this long from its admission (72 h); then TimedOut without retry. */
  exportTimeoutMs: number;
  /** A scheduled window's export is spawned this long after the window ends (10 min). */
  scheduleSpawnDelayMs: number;
  /** A job marked dispatched but not confirmed published for this long is published again (30 s; inside the bus's dedupe window). */
  republishAfterMs: number;
  /** A published job no worker started for this long is published anew, in case it was lost (1 h). */
  redispatchAfterMs: number;
}

export const DEFAULT_EXPORT_SETTINGS: ExportSettings = {
  maxRunningExportsPerWorkspace: 15,
  maxRunningRunsPerExport: 45,
  maxQueuedRunsPerWorkspace: 16,
  maxRetries: 20,
  retryDelayMs: 30_000,
  runTimeoutMs: 4 * 3_600_000,
  exportTimeoutMs: 72 * 3_600_000,
  scheduleSpawnDelayMs: 10 * 60_000,
  republishAfterMs: 30_000,
  redispatchAfterMs: 3_600_000,
};

/** The time source of the orchestration (injected so tests can move it). */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();

/** Interactive transactions may wait behind others (PGlite has one connection): generous limits. */
export const TX_OPTIONS = { maxWait: 20_000, timeout: 60_000 } as const;
