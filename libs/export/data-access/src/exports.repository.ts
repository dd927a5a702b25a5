import { randomUUID } from 'node:crypto';
import type { PrismaClient } from './generated/prisma/client';
import type { BulkExport } from './bulk-export';
import type { DestinationConfig } from './destination';
import { FINAL_STATUSES } from './export-status';
import { toExport, toRun, type ExportRow } from './export-rows';
import type { ExportRun } from './export-run';
import { TX_OPTIONS } from './export-settings';
import { utcDayPartitions, type TimeWindow } from './utc-day-partitions';

type Tx = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

/** What a new export is made of: the fields of `BulkExport` the caller chooses (compression always set). */
export type NewExport = Pick<
  BulkExport,
  'tenantId' | 'destinationId' | 'sessionId' | 'startTime' | 'endTime' | 'status' | 'format' | 'formatVersion' | 'filter' | 'exportFields' | 'intervalHours'
> & { compression: string; sourceBulkExportId?: string; scheduleWindow?: number };

/** The outcome of a cancel request. */
export type CancelOutcome = { kind: 'cancelled' | 'already-cancelled'; export: BulkExport } | { kind: 'final'; export: BulkExport };

export async function insertRuns(tx: Tx, exportId: string, tenantId: string, partitions: TimeWindow[]): Promise<void> {
  if (!partitions.length) return;
  await tx.bulkExportRun.createMany({
    data: partitions.map((p) => ({ id: randomUUID(), bulkExportId: exportId, tenantId, status: 'Created', startTime: p.start, endTime: p.end })),
  });
}

/** Exports and their runs in the export database. */
export class ExportsRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** Inserts an export with one Created run per UTC day of its window (none for a schedule parent). */
  async create(input: NewExport): Promise<BulkExport> {
    return this.prisma.$transaction(async (tx) => {
      const { destinationId, ...rest } = input;
      const row = await tx.bulkExport.create({ data: { id: randomUUID(), ...rest, bulkExportDestinationId: destinationId } });
      if (input.endTime) await insertRuns(tx, row.id, row.tenantId, utcDayPartitions(input.startTime, input.endTime));
      return toExport(row);
    }, TX_OPTIONS);
  }

  async list(tenantId: string, limit: number, offset: number): Promise<BulkExport[]> {
    const rows = await this.prisma.bulkExport.findMany({
      where: { tenantId },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: limit,
      skip: offset,
    });
    return rows.map(toExport);
  }

  async find(tenantId: string, id: string): Promise<BulkExport | null> {
    const row = await this.prisma.bulkExport.findFirst({ where: { id, tenantId } });
    return row && toExport(row);
  }

  async destinationConfigOf(destinationId: string): Promise<DestinationConfig | null> {
    const row = await this.prisma.bulkExportDestination.findUnique({ where: { id: destinationId }, select: { config: true } });
    return (row?.config as unknown as DestinationConfig | undefined) ?? null;
  }

  /**
   * Cancels a non-final export and its unfinished runs (a schedule parent stops spawning; exports it spawned are
   * left alone). Workers learn it at their next progress report.
   */
  async cancel(tenantId: string, id: string, now: Date): Promise<CancelOutcome | null> {
    return this.prisma.$transaction(async (tx) => {
      const locked = await tx.$queryRaw<ExportRow[]>`SELECT id FROM bulk_exports WHERE id = ${id}::uuid AND tenant_id = ${tenantId}::uuid FOR UPDATE`;
      if (!locked.length) return null;
      const current = toExport(await tx.bulkExport.findUniqueOrThrow({ where: { id } }));
      if (current.status === 'Cancelled') return { kind: 'already-cancelled', export: current };
      if (FINAL_STATUSES.includes(current.status)) return { kind: 'final', export: current };
      const updated = await tx.bulkExport.update({ where: { id }, data: { status: 'Cancelled', finishedAt: now } });
      await tx.bulkExportRun.updateMany({
        where: { bulkExportId: id, status: { notIn: [...FINAL_STATUSES] } },
        data: { status: 'Cancelled', finishedAt: now },
      });
      return { kind: 'cancelled', export: toExport(updated) };
    }, TX_OPTIONS);
  }

  async runsOf(exportId: string): Promise<ExportRun[]> {
    const rows = await this.prisma.bulkExportRun.findMany({ where: { bulkExportId: exportId }, orderBy: [{ startTime: 'asc' }, { id: 'asc' }] });
    return rows.map(toRun);
  }

  async findRun(exportId: string, runId: string): Promise<ExportRun | null> {
    const row = await this.prisma.bulkExportRun.findFirst({ where: { id: runId, bulkExportId: exportId } });
    return row && toRun(row);
  }

  /** Exports a schedule spawned, oldest window first. */
  async spawnedBy(tenantId: string, sourceId: string): Promise<BulkExport[]> {
    const rows = await this.prisma.bulkExport.findMany({
      where: { tenantId, sourceBulkExportId: sourceId },
      orderBy: [{ scheduleWindow: 'asc' }, { createdAt: 'asc' }],
    });
    return rows.map(toExport);
  }

  async runsOfExports(exportIds: string[]): Promise<ExportRun[]> {
    const rows = await this.prisma.bulkExportRun.findMany({
      where: { bulkExportId: { in: exportIds } },
      orderBy: [{ startTime: 'asc' }, { id: 'asc' }],
    });
    return rows.map(toRun);
  }
}

