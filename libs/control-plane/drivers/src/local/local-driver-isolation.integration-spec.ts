import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { closeDataDir } from '@platform/config';
import { InstancesRepository, openControlPlaneDatabase, type ControlPlaneDatabase } from '@platform/control-plane-data-access';
import { deploymentKey, signIdentity } from '@platform/identity';
import { silentLogger } from '@platform/logging';
import { PgliteDeploymentDatabases, databaseEnv } from '../databases/deployment-databases';
import type { DeploySpec } from '../driver';
import { LocalDriver } from './local-driver';
import { runningAsRoot, TENANT_UID_BASE } from './tenant-users';

const ROOT = path.resolve(__dirname, '../../../../..');
const FIXTURES = path.join(ROOT, 'apps/agent-server/e2e/fixtures');
const SECRET = 'isolation-platform-secret-0123456789';

interface Attempt {
  readable: boolean;
  detail: string;
}
interface Report {
  uid: number;
  gid: number;
  env: Record<string, string>;
  paths: Record<string, Attempt>;
}

function signedFor(deploymentId: string, key: string): Record<string, string> {
  const requestId = randomUUID();
  return { 'x-request-id': requestId, 'content-type': 'application/json', ...signIdentity(key, { tenantId: randomUUID(), organizationId: randomUUID(), subject: 't' }, requestId, { deploymentId }) };
}

// The attack of issue 38, under the local driver of a root control plane: a deployed graph reads its environment
// and tries the platform's data folder, its secret and the other deployment's files and process.
(runningAsRoot() ? describe : describe.skip)('LocalDriver as root: each deployment runs as a user of its own', () => {
  let db: ControlPlaneDatabase;
  let top: string;
  let dataDir: string;
  let work: string;
  let driver: LocalDriver;
  const deployments: { id: string; revision: string; build: string; database: string; url: string; key: string }[] = [];

  const probe = async (d: (typeof deployments)[number], paths: string[], key = d.key, signedId = d.id) =>
    fetch(`${d.url}/runs/wait`, {
      method: 'POST',
      headers: signedFor(signedId, key),
      body: JSON.stringify({ assistant_id: 'probe', input: {}, config: { configurable: { probe_paths: paths } } }),
    });

  beforeAll(async () => {
    // The operator's folder around the data folder lets others pass (a temp folder is made 0700).
    top = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-isolation-'));
    fs.chmodSync(top, 0o711);
    dataDir = path.join(top, '.data');
    fs.mkdirSync(path.join(dataDir, 'gateway'), { recursive: true, mode: 0o755 });
    fs.writeFileSync(path.join(dataDir, 'gateway', 'PG_VERSION'), '17', { mode: 0o644 });
    fs.writeFileSync(path.join(dataDir, 'internal-secret'), SECRET, { mode: 0o644 });
    work = path.join(dataDir, 'control-plane-work');
    // As the launcher (and a root control plane) leave it.
    closeDataDir(dataDir, { create: ['tracing'], open: ['control-plane-work'] });

    db = await openControlPlaneDatabase({ dataDir: 'memory://' });
    await db.migrate();
    driver = new LocalDriver({
      command: [path.join(ROOT, 'node_modules/.bin/tsx'), 'apps/agent-server/src/main.ts'],
      cwd: ROOT,
      host: '127.0.0.1',
      logDir: path.join(work, 'logs'),
      instances: new InstancesRepository(db.prisma),
      logger: silentLogger,
      onUpstreamChange: async () => undefined,
      healthTimeoutMs: 120_000,
      drainMs: 300,
      stopGraceMs: 5_000,
      workDir: work,
    });
    expect(driver.isolatesUsers).toBe(true);
    const databases = new PgliteDeploymentDatabases(path.join(work, 'databases'));
    await Promise.all(
      [0, 1].map(async () => {
        const row = await db.prisma.deployment.create({
          data: { tenantId: randomUUID(), name: `probe-${randomUUID().slice(0, 8)}`, source: 'github', sourceConfig: {}, sourceRevisionConfig: {}, status: 'READY' },
        });
        const revision = randomUUID();
        // A build as the builder leaves it (root's files in builds/<deployment>/<revision>).
        const build = path.join(work, 'builds', row.id, revision);
        fs.mkdirSync(build, { recursive: true });
        fs.copyFileSync(path.join(FIXTURES, 'tenant-probe.ts'), path.join(build, 'tenant-probe.ts'));
        fs.copyFileSync(path.join(FIXTURES, 'tenant-probe-langgraph.json'), path.join(build, 'langgraph.json'));
        const location = await databases.provision(row.id);
        const key = deploymentKey(SECRET, row.id);
        const spec: DeploySpec = {
          deploymentId: row.id,
          deploymentName: row.name,
          tenantId: row.tenantId,
          revisionId: revision,
          source: 'github',
          checkoutDir: build,
          configPath: path.join(build, 'langgraph.json'),
          env: { DEPLOYMENT_ID: row.id, DEPLOYMENT_KEY: key, LOG_LEVEL: 'warn', MIGRATE_ON_START: 'true', ...databaseEnv(location) },
          sharedDatabase: false,
        };
        const { upstreamUrl } = await driver.deploy(spec, new AbortController().signal);
        deployments.push({ id: row.id, revision, build, database: location.kind === 'pglite' ? location.dataDir : '', url: upstreamUrl, key });
      }),
    );
  }, 300_000);

  afterAll(async () => {
    await driver?.close();
    await db?.close();
    if (top) fs.rmSync(top, { recursive: true, force: true });
  });

  it('gives the graph its own key and no platform secret, and keeps the platform data and the other deployment out of reach', async () => {
    const [a, b] = deployments;
    const pidOfB = (await db.prisma.instance.findFirst({ where: { deploymentId: b.id, state: 'serving' } }))?.pid;
    expect(pidOfB).toBeGreaterThan(0);
    const own = [path.join(a.build, 'langgraph.json'), a.database];
    const closed = [
      dataDir,
      path.join(dataDir, 'internal-secret'),
      path.join(dataDir, 'gateway'),
      path.join(dataDir, 'gateway', 'PG_VERSION'),
      path.join(dataDir, 'tracing'),
      work,
      path.join(work, 'logs'),
      path.join(work, 'builds'),
      path.join(b.build, 'langgraph.json'),
      b.database,
      path.join(work, 'homes', b.id),
      `/proc/${pidOfB}/environ`,
      // The control plane's own process (this one, root's).
      `/proc/${process.pid}/environ`,
    ];
    const res = await probe(a, [...own, ...closed]);
    expect(res.status).toBe(200);
    const { report } = (await res.json()) as { report: Report };

    expect(report.uid).toBeGreaterThanOrEqual(TENANT_UID_BASE);
    expect(report.gid).toBe(report.uid);
    expect(report.env.INTERNAL_SECRET).toBeUndefined();
    expect(Object.entries(report.env).filter(([, value]) => value.includes(SECRET))).toEqual([]);
    expect(report.env.DEPLOYMENT_KEY).toBe(a.key);
    expect(report.env.HOME).toBe(path.join(work, 'homes', a.id));

    for (const file of own) expect([file, report.paths[file].readable]).toEqual([file, true]);
    for (const file of closed) expect([file, report.paths[file]]).toEqual([file, { readable: false, detail: 'EACCES' }]);
  });

  it('runs the other deployment as another user, which its key does not open', async () => {
    const [a, b] = deployments;
    const res = await probe(b, []);
    expect(res.status).toBe(200);
    const { report } = (await res.json()) as { report: Report };
    expect(report.uid).toBeGreaterThanOrEqual(TENANT_UID_BASE);
    const fromA = (await (await probe(a, [])).json()) as { report: Report };
    expect(report.uid).not.toBe(fromA.report.uid);
    // A's key, signed for B (or for A), is refused by B's server.
    expect((await probe(b, [], a.key, b.id)).status).toBe(401);
    expect((await probe(b, [], a.key, a.id)).status).toBe(403);
  });
});

if (!runningAsRoot()) process.stderr.write('SKIPPED: local driver user isolation tests (they need a control plane running as root)\n');
