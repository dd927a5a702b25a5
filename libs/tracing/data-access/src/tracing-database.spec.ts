import { randomUUID } from 'node:crypto';
import { openTracingDatabase, type TracingDatabase } from './tracing-database';

describe('tracing database (in-memory PGlite)', () => {
  let db: TracingDatabase;

  beforeAll(async () => {
    db = await openTracingDatabase({ dataDir: 'memory://' });
    await db.migrate();
  });
  afterAll(() => db.close());

  it('stores and reads a tracing session', async () => {
    const tenantId = randomUUID();
    await db.prisma.tracingSession.create({ data: { tenantId, name: 'default', extra: { metadata: { team: 'a' } } } });

    const found = await db.prisma.tracingSession.findUniqueOrThrow({ where: { tenantId_name: { tenantId, name: 'default' } } });
    expect(found).toMatchObject({ description: null, extra: { metadata: { team: 'a' } } });
    expect(found.startTime).toBeInstanceOf(Date);
  });
});
