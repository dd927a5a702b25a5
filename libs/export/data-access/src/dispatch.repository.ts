import type { PrismaClient } from './generated/prisma/client';
import { TX_OPTIONS, type ExportSettings } from './export-settings';

/** A partition job to publish: message id `<runId>:<seq>` makes republishing the same job idempotent. */
export interface PartitionJob {
  runId: string;
  exportId: string;
  tenantId: string;
  seq: number;
}

type JobRow = { id: string; bulk_export_id: string; tenant_id: string; dispatch_seq: number };
const toJob = (r: JobRow): PartitionJob => ({ runId: r.id, exportId: r.bulk_export_id, tenantId: r.tenant_id, seq: Number(r.dispatch_seq) });

// Namespace of the dispatcher's per-workspace advisory locks (any constant unique to this use).
const DISPATCH_LOCK_NAMESPACE = 48_151;

/**
 * The dispatcher's statements. Limits hold across replicas because each workspace is dispatched inside a
 * transaction holding that workspace's advisory lock: the counts it reads include every earlier dispatch.
 */
export class DispatchRepository {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly settings: Pick<
      ExportSettings,
      'maxRunningExportsPerWorkspace' | 'maxRunningRunsPerExport' | 'maxQueuedRunsPerWorkspace' | 'republishAfterMs' | 'redispatchAfterMs'
    >,
  ) {}

  /** Workspaces with exports waiting for or holding capacity. */
  async workspacesWithWork(): Promise<string[]> {
    const rows = await this.prisma.$queryRaw<{ tenant_id: string }[]>`
      SELECT DISTINCT tenant_id::text AS tenant_id FROM bulk_exports WHERE status IN ('Created', 'Running')`;
    return rows.map((r) => r.tenant_id);
  }

  /**
   * Admits Created exports while the workspace has fewer than the maximum Running, then marks Created runs of its
   * Running exports dispatched while each export has fewer than the maximum Running runs and the workspace fewer
   * than the maximum waiting for a worker (its exports' runs taken in turn). Returns the jobs to publish.
   */
  async dispatchWorkspace(tenantId: string, now: Date): Promise<PartitionJob[]> {
    const { maxRunningExportsPerWorkspace: maxExports, maxRunningRunsPerExport: maxRuns, maxQueuedRunsPerWorkspace: maxQueued } = this.settings;
    return this.prisma.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT 1 AS locked FROM (SELECT pg_advisory_xact_lock(${DISPATCH_LOCK_NAMESPACE}::int, hashtext(${tenantId}))) AS l`;
      await tx.$executeRaw`
        UPDATE bulk_exports SET status = 'Running', started_at = ${now}::timestamptz, updated_at = ${now}::timestamptz
        WHERE status = 'Created' AND id IN (
          SELECT id FROM bulk_exports WHERE tenant_id = ${tenantId}::uuid AND status = 'Created'
          ORDER BY created_at, id
          LIMIT GREATEST(${maxExports}::int - (SELECT count(*) FROM bulk_exports WHERE tenant_id = ${tenantId}::uuid AND status = 'Running'), 0)
        )`;
      // Runs dispatched but not yet started by a worker are this workspace's jobs waiting in the shared queue.
      const rows = await tx.$queryRaw<JobRow[]>`
        WITH cap AS (
          SELECT e.id AS export_id, e.created_at AS export_created_at,
                 ${maxRuns}::int - (SELECT count(*) FROM bulk_export_runs r WHERE r.bulk_export_id = e.id AND r.status = 'Running') AS free
          FROM bulk_exports e WHERE e.tenant_id = ${tenantId}::uuid AND e.status = 'Running'
        ), queued AS (
          SELECT count(*) AS n FROM bulk_export_runs r JOIN cap ON cap.export_id = r.bulk_export_id
          WHERE r.status = 'Running' AND r.dispatched_at IS NOT NULL AND r.attempt_started_at IS NULL
        ), ranked AS (
          SELECT r.id, row_number() OVER (PARTITION BY r.bulk_export_id ORDER BY r.start_time, r.id) AS rn, cap.free, cap.export_created_at
          FROM bulk_export_runs r JOIN cap ON cap.export_id = r.bulk_export_id
          WHERE r.status = 'Created'
        ), turns AS (
          SELECT id, row_number() OVER (ORDER BY rn, export_created_at, id) AS turn FROM ranked WHERE rn <= free
        )
        UPDATE bulk_export_runs u
        SET status = 'Running', dispatched_at = ${now}::timestamptz, published_at = NULL, next_attempt_at = NULL,
            dispatch_seq = u.dispatch_seq + 1, updated_at = ${now}::timestamptz
        FROM turns
        WHERE u.id = turns.id AND turns.turn <= ${maxQueued}::int - (SELECT n FROM queued) AND u.status = 'Created'
        RETURNING u.id::text AS id, u.bulk_export_id::text AS bulk_export_id, u.tenant_id::text AS tenant_id, u.dispatch_seq`;
      return rows.map(toJob);
    }, TX_OPTIONS);
  }

  /** Runs whose retry delay has passed (they kept their capacity slot while waiting). */
  async dispatchDueRetries(now: Date): Promise<PartitionJob[]> {
    const rows = await this.prisma.$queryRaw<JobRow[]>`
      UPDATE bulk_export_runs u
      SET dispatched_at = ${now}::timestamptz, published_at = NULL, dispatch_seq = u.dispatch_seq + 1, updated_at = ${now}::timestamptz
      FROM bulk_exports e
      WHERE e.id = u.bulk_export_id AND e.status = 'Running'
        AND u.status = 'Running' AND u.dispatched_at IS NULL AND u.next_attempt_at <= ${now}::timestamptz
      RETURNING u.id::text AS id, u.bulk_export_id::text AS bulk_export_id, u.tenant_id::text AS tenant_id, u.dispatch_seq`;
    return rows.map(toJob);
  }

  /** Jobs marked dispatched whose publish was never confirmed (the publisher died after commit): publish again. */
  async unconfirmed(now: Date): Promise<PartitionJob[]> {
    const cutoff = new Date(now.getTime() - this.settings.republishAfterMs);
    const rows = await this.prisma.$queryRaw<JobRow[]>`
      SELECT u.id::text AS id, u.bulk_export_id::text AS bulk_export_id, u.tenant_id::text AS tenant_id, u.dispatch_seq
      FROM bulk_export_runs u JOIN bulk_exports e ON e.id = u.bulk_export_id
      WHERE e.status = 'Running' AND u.status = 'Running' AND u.published_at IS NULL
        AND u.dispatched_at IS NOT NULL AND u.dispatched_at < ${cutoff}::timestamptz
      LIMIT 500`;
    return rows.map(toJob);
  }

  /**
   * Published jobs no worker has started for `redispatchAfterMs` (a lost message): a new job. If the old one
   * turns up after all, the worker that starts second takes over and the first is refused at its next report.
   */
  async redispatchUnstarted(now: Date): Promise<PartitionJob[]> {
    const cutoff = new Date(now.getTime() - this.settings.redispatchAfterMs);
    const rows = await this.prisma.$queryRaw<JobRow[]>`
      UPDATE bulk_export_runs u
      SET dispatched_at = ${now}::timestamptz, published_at = NULL, dispatch_seq = u.dispatch_seq + 1, updated_at = ${now}::timestamptz
      FROM bulk_exports e
      WHERE e.id = u.bulk_export_id AND e.status = 'Running'
        AND u.status = 'Running' AND u.attempt_started_at IS NULL
        AND u.published_at IS NOT NULL AND u.published_at < ${cutoff}::timestamptz
      RETURNING u.id::text AS id, u.bulk_export_id::text AS bulk_export_id, u.tenant_id::text AS tenant_id, u.dispatch_seq`;
    return rows.map(toJob);
  }

  /** Records that the bus accepted the jobs (only for the dispatch they belong to). */
  async confirmPublished(jobs: PartitionJob[], now: Date): Promise<void> {
    if (!jobs.length) return;
    await this.prisma.$executeRaw`
      UPDATE bulk_export_runs u SET published_at = ${now}::timestamptz
      FROM unnest(${jobs.map((j) => j.runId)}::uuid[], ${jobs.map((j) => j.seq)}::int[]) AS j(id, seq)
      WHERE u.id = j.id AND u.dispatch_seq = j.seq AND u.published_at IS NULL`;
  }
}
