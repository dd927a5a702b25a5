import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { InstancesRepository, openControlPlaneDatabase, type ControlPlaneDatabase } from '@platform/control-plane-data-access';
import { deploymentKey, signIdentity } from '@platform/identity';
import { silentLogger } from '@platform/logging';
import { PgliteDeploymentDatabases, PostgresDeploymentDatabases, databaseEnv, type DatabaseLocation, type DeploymentDatabases } from '../databases/deployment-databases';
import { DeployError, type DeploySpec } from '../driver';
import { LocalDriver } from './local-driver';
import { isAlive } from './process-tools';

const ROOT = path.resolve(__dirname, '../../../../..');
const EXAMPLE = path.join(ROOT, 'examples/react-agent');
const SECRET = 'local-driver-internal-secret-0123';

async function waitFor<T>(read: () => Promise<T> | T, done: (v: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// Signed for `deploymentId` with its key, as the gateway signs: a server serving another deployment refuses it (403).
async function info(url: string, deploymentId: string): Promise<{ deployment_id: string }> {
  const requestId = randomUUID();
  const identity = { tenantId: randomUUID(), organizationId: randomUUID(), subject: 't' };
  const res = await fetch(`${url}/info`, { headers: { 'x-request-id': requestId, ...signIdentity(deploymentKey(SECRET, deploymentId), identity, requestId, { deploymentId }) } });
  return (await res.json()) as { deployment_id: string };
}

// Real Agent Servers (tsx apps/agent-server/src/main.ts serving examples/react-agent) as child processes.
describe('LocalDriver (real Agent Server processes)', () => {
  let db: ControlPlaneDatabase;
  let work: string;
  let databases: DeploymentDatabases;
  let location: DatabaseLocation;
  let deploymentId: string;
  const upstreamChanges: string[] = [];
  const drivers: LocalDriver[] = [];

  const newDriver = (drainMs = 500) => {
    const driver = new LocalDriver({
      command: [path.join(ROOT, 'node_modules/.bin/tsx'), 'apps/agent-server/src/main.ts'],
      cwd: ROOT,
      host: '127.0.0.1',
      logDir: path.join(work, 'logs'),
      instances: new InstancesRepository(db.prisma),
      logger: silentLogger,
      onUpstreamChange: async (_id, url) => {
        upstreamChanges.push(url);
      },
      healthTimeoutMs: 90_000,
      drainMs,
      stopGraceMs: 5_000,
      superviseIntervalMs: 300,
    });
    drivers.push(driver);
    return driver;
  };
  const spec = (revisionId: string, env: Record<string, string> = {}): DeploySpec => ({
    deploymentId,
    deploymentName: 'local-driver-test',
    tenantId: randomUUID(),
    revisionId,
    source: 'github',
    checkoutDir: EXAMPLE,
    configPath: path.join(EXAMPLE, 'langgraph.json'),
    env: { DEPLOYMENT_ID: deploymentId, DEPLOYMENT_KEY: deploymentKey(SECRET, deploymentId), LOG_LEVEL: 'warn', MIGRATE_ON_START: 'true', ...databaseEnv(location), ...env },
    sharedDatabase: location.kind === 'postgres',
  });
  const pidOf = async (url: string) => (await db.prisma.instance.findFirst({ where: { url, state: 'serving' } }))?.pid ?? null;

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-local-driver-'));
    db = await openControlPlaneDatabase({ dataDir: 'memory://' });
    await db.migrate();
    const row = await db.prisma.deployment.create({
      data: { tenantId: randomUUID(), name: 'd', source: 'github', sourceConfig: {}, sourceRevisionConfig: {}, status: 'READY' },
    });
    deploymentId = row.id;
    databases = process.env.DATABASE_URL
      ? new PostgresDeploymentDatabases(process.env.DATABASE_URL, `ldrv${randomUUID().slice(0, 6)}_`)
      : new PgliteDeploymentDatabases(path.join(work, 'databases'));
    location = await databases.provision(deploymentId);
  });

  afterAll(async () => {
    for (const driver of drivers) await driver.close();
    await databases?.drop(deploymentId, location);
    await db?.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('starts an instance, restarts it after a crash, hands it to a successor that adopts it, and stops it on destroy', async () => {
    const first = newDriver();
    const revision = randomUUID();
    const { upstreamUrl } = await first.deploy(spec(revision), new AbortController().signal);
    expect(await info(upstreamUrl, deploymentId)).toMatchObject({ deployment_id: deploymentId });
    const pid = (await pidOf(upstreamUrl)) as number;
    expect(isAlive(pid)).toBe(true);

    // A crash: the whole process group dies; the driver brings it back on the same port.
    process.kill(-pid, 'SIGKILL');
    const restartedPid = await waitFor(() => pidOf(upstreamUrl), (p) => p !== null && p !== pid && isAlive(p), 90_000);
    await waitFor(() => fetch(`${upstreamUrl}/ok`).then((r) => r.status, () => 0), (s) => s === 200, 90_000);
    // The driver reports the URL it serves on again (the same one: the port was free to reuse).
    await waitFor(() => upstreamChanges.length, (n) => n === 1, 10_000);
    expect(upstreamChanges).toEqual([upstreamUrl]);

    // Leadership moves: the first driver lets go without stopping anything; the successor adopts the live process.
    await first.release();
    const successor = newDriver();
    const urls = await successor.resume([spec(revision)]);
    expect(urls.get(deploymentId)).toBe(upstreamUrl);
    expect(await pidOf(upstreamUrl)).toBe(restartedPid);
    expect(isAlive(restartedPid as number)).toBe(true);

    // An adopted process is not a child: the successor notices its death by pid and restarts it.
    process.kill(-(restartedPid as number), 'SIGKILL');
    await waitFor(() => pidOf(upstreamUrl), (p) => p !== null && p !== restartedPid && isAlive(p), 90_000);
    await waitFor(() => fetch(`${upstreamUrl}/ok`).then((r) => r.status, () => 0), (s) => s === 200, 90_000);

    const last = (await pidOf(upstreamUrl)) as number;
    await successor.destroy(deploymentId);
    expect(isAlive(last)).toBe(false);
    expect(await db.prisma.instance.count({ where: { deploymentId } })).toBe(0);
  });

  it('swaps revisions (overlapping on Postgres, reusing the port on PGlite) and keeps the old one when the new fails', async () => {
    const driver = newDriver(300);
    const a = await driver.deploy(spec(randomUUID()), new AbortController().signal);
    const pidA = (await pidOf(a.upstreamUrl)) as number;
    const b = await driver.deploy(spec(randomUUID()), new AbortController().signal);
    if (location.kind === 'postgres') expect(b.upstreamUrl).not.toBe(a.upstreamUrl);
    else expect(b.upstreamUrl).toBe(a.upstreamUrl);
    await waitFor(() => isAlive(pidA), (alive) => !alive, 20_000);
    expect(await info(b.upstreamUrl, deploymentId)).toMatchObject({ deployment_id: deploymentId });

    const failing = driver.deploy(spec(randomUUID(), { LANGSMITH_TRACING: 'true', LANGSMITH_ENDPOINT: 'not a url' }), new AbortController().signal);
    await expect(failing).rejects.toThrow(DeployError);
    await expect(failing).rejects.toThrow(/exited with code \d+ before it became healthy:[\s\S]*LANGSMITH_ENDPOINT/);
    // The previous revision serves (still, on Postgres; brought back on its port, on PGlite).
    await waitFor(() => fetch(`${b.upstreamUrl}/ok`).then((r) => r.status, () => 0), (s) => s === 200, 90_000);
    await driver.destroy(deploymentId);
  });
});
