import type { PrismaClient } from '@platform/export-data-access';
import type { BulkExport, BulkExportStore } from './bulk-export';

type Row = Awaited<ReturnType<PrismaClient['bulkExport']['findUniqueOrThrow']>>;

function toExport({ bulkExportDestinationId, ...row }: Row): BulkExport {
  return { ...row, destinationId: bulkExportDestinationId };
}

/** Bulk exports in the export service's database. */
export class PrismaBulkExportStore implements BulkExportStore {
  constructor(private readonly prisma: PrismaClient) {}

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
}
