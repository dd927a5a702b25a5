import type { AgentServerDatabase } from '@platform/agent-server-data-access';
import { silentLogger } from '@platform/logging';
import { createRunService, type RunService, type RunServiceDeps, type RunSettings } from './runs.service';

/** Run-service settings for tests that run graphs in process: short polls and flushes, a quick shutdown. */
export const TEST_RUN_SETTINGS: RunSettings = {
  concurrency: 4,
  leaseMs: 30_000,
  heartbeatMs: 5_000,
  pollMs: 100,
  sweepMs: 5_000,
  maxAttempts: 3,
  retentionMs: 60_000,
  flushMs: 10,
  shutdownGraceMs: 1_000,
};

/** A run service on `db` with {@link TEST_RUN_SETTINGS} and no logging (not started). */
export function createTestRunService(
  db: Pick<AgentServerDatabase, 'sql' | 'notifications'>,
  deps: Pick<RunServiceDeps, 'registry' | 'checkpointer' | 'assistants'>,
): RunService {
  return createRunService({ sql: db.sql, notifications: db.notifications, ...deps, logger: silentLogger, settings: TEST_RUN_SETTINGS });
}
