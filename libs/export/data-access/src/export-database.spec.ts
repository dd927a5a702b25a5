import { randomUUID } from 'node:crypto';
import { openExportDatabase, type ExportDatabase } from './export-database';

describe('export database (in-memory PGlite)', () => {
  let db: ExportDatabase;

  beforeAll(async () => {
    db = await openExportDatabase({ dataDir: 'memory://' });
    await db.migrate();
  });
  afterAll(() => db.close());

  it('stores a bulk export against its destination', async () => {
    const tenantId = randomUUID();
    const destination = await db.prisma.bulkExportDestination.create({
      data: { tenantId, displayName: 'bucket', config: { bucket_name: 'b', prefix: 'p' }, credentialsEncrypted: 'x' },
    });
    const startTime = new Date('2026-01-01T00:00:00Z');
    const created = await db.prisma.bulkExport.create({
      data: {
        tenantId,
        bulkExportDestinationId: destination.id,
        sessionId: randomUUID(),
        startTime,
        status: 'Created',
        exportFields: ['id', 'name'],
      },
    });

    const found = await db.prisma.bulkExport.findUniqueOrThrow({ where: { id: created.id }, include: { destination: true } });
    expect(found).toMatchObject({ format: 'Parquet', formatVersion: 'v1', exportFields: ['id', 'name'], startTime, destination: { type: 's3' } });
  });
});
