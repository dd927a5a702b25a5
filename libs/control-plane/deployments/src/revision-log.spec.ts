import { randomUUID } from 'node:crypto';
import { NotFoundError } from '@platform/errors';
import { DeploymentsRepository, openControlPlaneDatabase, RevisionLogsRepository, type ControlPlaneDatabase } from '@platform/control-plane-data-access';
import { SecretBox, encryptionKey } from '@platform/control-plane-secrets';
import { createDeployment } from './create-deployment.usecase';
import type { DeploymentsContext } from './deployments-context';
import { RevisionLogWriter } from './revision-log-writer';
import { revisionLogsJson, revisionLogsQuery } from './revision-log';
import { listRevisionLogs } from './list-revision-logs.usecase';

// Revision logs on the control plane's schema (in-memory PGlite): written by the writer, paged by the use case.
describe('revision logs', () => {
  let db: ControlPlaneDatabase;
  let ctx: DeploymentsContext;

  beforeAll(async () => {
    db = await openControlPlaneDatabase({ dataDir: 'memory://' });
    await db.migrate();
    ctx = {
      store: new DeploymentsRepository(db.prisma),
      logs: new RevisionLogsRepository(db.prisma),
      box: new SecretBox(encryptionKey('revision-log-spec-key')),
      rules: { allowedRepoUrls: ['*'] },
    };
  }, 60_000);
  afterAll(() => db?.close());

  const deploy = (tenantId: string) =>
    createDeployment(ctx, {
      tenantId,
      organizationId: null,
      name: `logs-${randomUUID().slice(0, 8)}`,
      source: 'external_docker',
      sourceConfig: {},
      sourceRevisionConfig: { image_uri: 'ghcr.io/acme/agent:1' },
      secrets: [],
    });

  it('turns output cut anywhere into lines, in order, and pages them with a cursor', async () => {
    const tenantId = randomUUID();
    const { deployment, revision } = await deploy(tenantId);
    const writer = new RevisionLogWriter(ctx.logs, revision.id, 'build');
    writer.write('$ npm ci\nadded 3 pack');
    writer.write('ages\r\nwarn: old');
    writer.line('Build failed: exit 1', 'ERROR');
    writer.write(' lockfile');
    await writer.close();
    const deployLog = new RevisionLogWriter(ctx.logs, revision.id, 'deploy');
    deployLog.line('Starting');
    await deployLog.close();

    const query = (q: Record<string, string>) => listRevisionLogs(ctx, tenantId, deployment.id, revision.id, revisionLogsQuery.parse(q));
    const all = await query({});
    expect(all.entries.map((e) => [e.type, e.level, e.message])).toEqual([
      ['build', 'INFO', '$ npm ci'],
      ['build', 'INFO', 'added 3 packages'],
      ['build', 'ERROR', 'Build failed: exit 1'],
      ['build', 'INFO', 'warn: old lockfile'],
      ['deploy', 'INFO', 'Starting'],
    ]);
    const first = revisionLogsJson(await query({ type: 'build', limit: '2' }));
    expect(first.logs.map((l) => l.message)).toEqual(['$ npm ci', 'added 3 packages']);
    expect(first.next_offset).toMatch(/^\d+$/);
    const second = revisionLogsJson(await query({ type: 'build', limit: '2', offset: first.next_offset as string }));
    expect(second.logs.map((l) => l.message)).toEqual(['Build failed: exit 1', 'warn: old lockfile']);
    // Ascending, the last page keeps its cursor: a build still running writes more after it.
    const third = revisionLogsJson(await query({ type: 'build', offset: second.next_offset as string }));
    expect(third).toEqual({ logs: [], next_offset: second.next_offset });
    const newest = revisionLogsJson(await query({ order: 'desc', limit: '1' }));
    expect(newest.logs.map((l) => l.message)).toEqual(['Starting']);
  });

  it('answers 404 for a revision of another tenant, and refuses a cursor that is not one', async () => {
    const { deployment, revision } = await deploy(randomUUID());
    await expect(listRevisionLogs(ctx, randomUUID(), deployment.id, revision.id, revisionLogsQuery.parse({}))).rejects.toBeInstanceOf(NotFoundError);
    expect(revisionLogsQuery.safeParse({ offset: 'abc' }).success).toBe(false);
    expect(revisionLogsQuery.safeParse({ type: 'server' }).success).toBe(false);
    expect(revisionLogsQuery.safeParse({ limit: '1001' }).success).toBe(false);
  });
});
