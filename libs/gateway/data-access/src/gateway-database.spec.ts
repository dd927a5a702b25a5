import { ConflictError } from '@platform/errors';
import { mapPrismaError } from '@platform/prisma';
import { openGatewayDatabase, type GatewayDatabase } from './gateway-database';

describe('gateway database (in-memory PGlite)', () => {
  let db: GatewayDatabase;

  beforeAll(async () => {
    db = await openGatewayDatabase({ dataDir: 'memory://' });
    // Every migration applies to a fresh database, the first one creating the schema.
    const applied = await db.migrate();
    expect(applied[0]).toMatch(/_init$/);
    expect(applied).toContain('20261125183158_browser_sessions');
  });
  afterAll(() => db.close());

  it('stores an organization with a workspace and an API key', async () => {
    const org = await db.prisma.organization.create({ data: { name: 'acme', workspaces: { create: { name: 'default' } } } });
    const workspace = await db.prisma.workspace.findFirstOrThrow({ where: { organizationId: org.id } });
    await db.prisma.apiKey.create({
      data: { organizationId: org.id, workspaceId: workspace.id, keyPrefix: 'lsv2_abc', keyHash: 'a'.repeat(64), description: 'ci' },
    });

    const key = await db.prisma.apiKey.findUniqueOrThrow({ where: { keyHash: 'a'.repeat(64) }, include: { workspace: true } });
    expect(key).toMatchObject({ role: 'member', revokedAt: null, workspace: { name: 'default' } });
    expect(key.createdAt).toBeInstanceOf(Date);
  });

  it('surfaces a duplicate name as a ConflictError through mapPrismaError', async () => {
    await db.prisma.organization.create({ data: { name: 'twice' } });
    const err = await db.prisma.organization.create({ data: { name: 'twice' } }).catch((e: unknown) => e);
    expect(mapPrismaError(err)).toBeInstanceOf(ConflictError);
  });

  it('is ready', async () => {
    expect(await db.ready()).toBe(true);
  });
});
