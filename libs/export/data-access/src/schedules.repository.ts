import { randomUUID } from 'node:crypto';
import type { PrismaClient } from './generated/prisma/client';
import { TX_OPTIONS } from './export-settings';
import { insertRuns } from './exports.repository';
import { utcDayPartitions, type TimeWindow } from './utc-day-partitions';

/** A schedule parent as its windows are planned from. */
export interface Schedule {
  startTime: Date;
  intervalHours: number;
  /** The highest window spawned so far (0 when none). */
  lastWindow: number;
}

/** One window of a schedule to spawn as an export: its number (from 1) and its time range. */
export interface ScheduledWindow extends TimeWindow {
  window: number;
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

/** Schedule parents (`IntervalScheduled` exports) and the exports they spawn, one per window. */
export class SchedulesRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** Ids of every active schedule. */
  async activeIds(): Promise<string[]> {
    const parents = await this.prisma.bulkExport.findMany({ where: { status: 'IntervalScheduled' }, select: { id: true } });
    return parents.map((p) => p.id);
  }

  /**
   * Spawns the windows `plan` names for one schedule. The parent row is locked (SKIP LOCKED: another replica is on
   * it) and each window is inserted with ON CONFLICT on (source_bulk_export_id, schedule_window), so a window is
   * spawned once however many schedulers run and however often they restart. Returns the number spawned.
   */
  async spawnWindows(parentId: string, now: Date, plan: (schedule: Schedule) => ScheduledWindow[]): Promise<number> {
    return this.prisma.$transaction(async (tx) => {
      const [parent] = await tx.$queryRaw<ParentRow[]>`
        SELECT id::text AS id, tenant_id::text AS tenant_id, bulk_export_destination_id::text AS bulk_export_destination_id,
               session_id::text AS session_id, start_time, interval_hours, format, format_version, compression, filter, export_fields
        FROM bulk_exports WHERE id = ${parentId}::uuid AND status = 'IntervalScheduled' FOR UPDATE SKIP LOCKED`;
      if (!parent) return 0;
      const [{ last }] = await tx.$queryRaw<{ last: number | null }[]>`
        SELECT max(schedule_window) AS last FROM bulk_exports WHERE source_bulk_export_id = ${parentId}::uuid`;
      let spawned = 0;
      for (const window of plan({ startTime: parent.start_time, intervalHours: parent.interval_hours, lastWindow: last ?? 0 })) {
        const id = randomUUID();
        const inserted = await tx.$executeRaw`
          INSERT INTO bulk_exports (id, tenant_id, bulk_export_destination_id, session_id, start_time, end_time, status, format,
                                    format_version, compression, filter, export_fields, source_bulk_export_id, schedule_window,
                                    created_at, updated_at)
          VALUES (${id}::uuid, ${parent.tenant_id}::uuid, ${parent.bulk_export_destination_id}::uuid, ${parent.session_id}::uuid,
                  ${window.start}::timestamptz, ${window.end}::timestamptz, 'Created', ${parent.format}, ${parent.format_version},
                  ${parent.compression}, ${parent.filter}, ${parent.export_fields}::text[], ${parentId}::uuid, ${window.window}::int,
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
}
