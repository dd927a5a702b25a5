import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '@platform/export-data-access';
import type { Logger } from '@platform/logging';
import type { Clock, ExportSettings } from './export-settings';
import { TX_OPTIONS } from './export-settings';
import { insertRuns } from './exports.repository';
import { lastDueWindow, scheduleWindow } from './schedule-windows';
import { utcDayPartitions } from './utc-day-partitions';

export interface SchedulerDeps {
  prisma: PrismaClient;
  clock: Clock;
  logger: Logger;
  settings: Pick<ExportSettings, 'scheduleSpawnDelayMs'>;
  /** Windows spawned per schedule per pass (catching up after downtime goes a batch at a time). */
  maxWindowsPerPass?: number;
}

type ParentRow = {
  id: string;
  tenant_id: string;
  bulk_export_destination_id: string;
  session_id: string;
  start_time: Date;
  interval_hours: number;
  format: string;
  format_version: string;
  compression: string | null;
  filter: string | null;
  export_fields: string[];
};

/**
 * Spawns the due windows of one schedule. The parent row is locked (SKIP LOCKED: another replica is on it) and
 * each window is inserted with ON CONFLICT on (source_bulk_export_id, schedule_window), so a window is spawned
 * once however many schedulers run and however often they restart.
 */
async function spawnDue(deps: SchedulerDeps, parentId: string, now: Date, maxWindows: number): Promise<number> {
  return deps.prisma.$transaction(async (tx) => {
    const [parent] = await tx.$queryRaw<ParentRow[]>`
      SELECT id::text AS id, tenant_id::text AS tenant_id, bulk_export_destination_id::text AS bulk_export_destination_id,
             session_id::text AS session_id, start_time, interval_hours, format, format_version, compression, filter, export_fields
      FROM bulk_exports WHERE id = ${parentId}::uuid AND status = 'IntervalScheduled' FOR UPDATE SKIP LOCKED`;
    if (!parent) return 0;
    const due = lastDueWindow(parent.start_time, parent.interval_hours, deps.settings.scheduleSpawnDelayMs, now);
    const [{ last }] = await tx.$queryRaw<{ last: number | null }[]>`
      SELECT max(schedule_window) AS last FROM bulk_exports WHERE source_bulk_export_id = ${parentId}::uuid`;
    let spawned = 0;
    for (let k = (last ?? 0) + 1; k <= due && spawned < maxWindows; k++) {
      const window = scheduleWindow(parent.start_time, parent.interval_hours, k);
      const id = randomUUID();
      const inserted = await tx.$executeRaw`
        INSERT INTO bulk_exports (id, tenant_id, bulk_export_destination_id, session_id, start_time, end_time, status, format,
                                  format_version, compression, filter, export_fields, source_bulk_export_id, schedule_window,
                                  created_at, updated_at)
        VALUES (${id}::uuid, ${parent.tenant_id}::uuid, ${parent.bulk_export_destination_id}::uuid, ${parent.session_id}::uuid,
                ${window.start}::timestamptz, ${window.end}::timestamptz, 'Created', ${parent.format}, ${parent.format_version},
                ${parent.compression}, ${parent.filter}, ${parent.export_fields}::text[], ${parentId}::uuid, ${k}::int,
                ${now}::timestamptz, ${now}::timestamptz)
        ON CONFLICT (source_bulk_export_id, schedule_window) DO NOTHING`;
      if (inserted === 1) {
        await insertRuns(tx, id, parent.tenant_id, utcDayPartitions(window.start, window.end));
        spawned++;
      }
    }
    return spawned;
  }, TX_OPTIONS);
}

/** One scheduler pass over every active schedule; safe in every replica. Returns the number of exports spawned. */
export async function spawnScheduledExports(deps: SchedulerDeps): Promise<number> {
  const now = deps.clock();
  const parents = await deps.prisma.bulkExport.findMany({ where: { status: 'IntervalScheduled' }, select: { id: true } });
  let total = 0;
  for (const { id } of parents) {
    try {
      const spawned = await spawnDue(deps, id, now, deps.maxWindowsPerPass ?? 48);
      if (spawned) deps.logger.info({ scheduleId: id, spawned }, 'export scheduler: spawned scheduled exports');
      total += spawned;
    } catch (err) {
      deps.logger.error({ err, scheduleId: id }, 'export scheduler: spawning failed');
    }
  }
  return total;
}
