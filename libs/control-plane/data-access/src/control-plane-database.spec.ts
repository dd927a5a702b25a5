import { randomUUID } from 'node:crypto';
import { openControlPlaneDatabase, type ControlPlaneDatabase } from './control-plane-database';

describe('control-plane database (in-memory PGlite)', () => {
  let db: ControlPlaneDatabase;

  beforeAll(async () => {
    db = await openControlPlaneDatabase({ dataDir: 'memory://' });
    await db.migrate();
  });
  afterAll(() => db.close());

  it('stores and reads a deployment with its JSON config', async () => {
    const tenantId = randomUUID();
    const created = await db.prisma.deployment.create({
      data: {
        tenantId,
        name: 'agent',
        source: 'external_docker',
        sourceConfig: { image: 'registry/agent:1' },
        sourceRevisionConfig: {},
        status: 'AWAITING_DEPLOY',
      },
    });

    const found = await db.prisma.deployment.findUniqueOrThrow({ where: { tenantId_name: { tenantId, name: 'agent' } } });
    expect(found).toMatchObject({ id: created.id, sourceConfig: { image: 'registry/agent:1' }, upstreamUrl: null });
  });
});
