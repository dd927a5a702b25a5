import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Builder } from '@platform/control-plane-builder';
import { DeploymentsRepository, openControlPlaneDatabase, ReconcilerRepository, RevisionLogsRepository, type ControlPlaneDatabase } from '@platform/control-plane-data-access';
import { createDeployment, listRevisionLogs, type DeploymentsContext } from '@platform/control-plane-deployments';
import { KubernetesDriver, PostgresDeploymentDatabases, loadKubernetesClient } from '@platform/control-plane-drivers';
import { SecretBox, encryptionKey } from '@platform/control-plane-secrets';
// eslint-disable-next-line @nx/enforce-module-boundaries -- test-only servers and fixtures, in a spec
import { startFakeKubernetesApi, type FakeKubernetesApi } from '@platform/control-plane-testing';
import { deploymentKey } from '@platform/identity';
import { silentLogger } from '@platform/logging';
import { createScratchPostgresDatabase, type ScratchDatabase } from '@platform/prisma';
// eslint-disable-next-line @nx/enforce-module-boundaries -- test-only servers and fixtures, in a spec
import { describeWithService } from '@platform/testing';
import { Reconciler } from './reconciler';

async function waitFor<T>(read: () => Promise<T> | T, done: (v: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// Replicas of the reconciler on one Postgres database, each driving the Kubernetes API test server with its own
// credentials, so every call can be traced to the replica that made it.
describeWithService('DATABASE_URL', 'Postgres (reconciler replicas)')('Reconciler replicas (Postgres, Kubernetes API test server)', () => {
  let scratch: ScratchDatabase;
  let api: FakeKubernetesApi;
  let work: string;
  const prefix = `rec${randomBytes(3).toString('hex')}_`;
  const box = new SecretBox(encryptionKey('reconciler-integration-key'));
  const opened: ControlPlaneDatabase[] = [];
  const running: Reconciler[] = [];
  let ctx: DeploymentsContext;

  const replica = async (name: string, maxAttempts = 3) => {
    const db = await openControlPlaneDatabase({ url: scratch.url, dataDir: 'memory://' });
    opened.push(db);
    const reconciler = new Reconciler({
      // A lease long enough that a leader stalled by a loaded test machine keeps it (the first test expects no
      // takeover until the leader stops); stop() releases it, so handovers stay immediate.
      records: ReconcilerRepository.forHolder(db.prisma, name, 5_000),
      driver: new KubernetesDriver({
        kubeConfig: (k8s) => {
          const kc = new k8s.KubeConfig();
          kc.loadFromOptions({
            clusters: [{ name: 'c', server: api.url, skipTLSVerify: true }],
            users: [{ name: 'u', token: name }],
            contexts: [{ name: 'c', cluster: 'c', user: 'u', namespace: 'agents' }],
            currentContext: 'c',
          });
          return kc;
        },
        namespace: 'agents',
        agentServerImage: 'agent-platform:test',
        agentServerCommand: ['node', 'dist/apps/agent-server/main.cjs'],
        gitImage: 'alpine/git:2.47.2',
        logger: silentLogger,
        rolloutTimeoutMs: 3_000,
        pollIntervalMs: 20,
      }),
      builder: new Builder({ platformRoot: process.cwd(), timeoutMs: 60_000, defaultInstallCommand: 'npm install' }),
      databases: new PostgresDeploymentDatabases(process.env.DATABASE_URL as string, prefix),
      box,
      revisionLogs: new RevisionLogsRepository(db.prisma),
      logger: silentLogger,
      options: {
        pollIntervalMs: 100,
        maxAttempts,
        maxConcurrentBuilds: 1,
        workDir: work,
        defaultInstallCommand: 'npm install',
        agentEnv: { internalSecret: 'internal-secret-0123456789', logLevel: 'warn' },
      },
    });
    running.push(reconciler);
    reconciler.start();
    return reconciler;
  };

  const revision = (id: string) => opened[0].prisma.revision.findUniqueOrThrow({ where: { id } });
  const create = async (name: string, image = 'ghcr.io/acme/agent:1') => {
    const { deployment, revision: first } = await createDeployment(ctx, {
      tenantId: randomUUID(),
      organizationId: null,
      name,
      source: 'external_docker',
      sourceConfig: {},
      sourceRevisionConfig: { image_uri: image },
      secrets: [{ name: 'API_TOKEN', value: 't0k3n' }],
    });
    return { deployment, revision: first };
  };
  const mutatingTokens = () => new Set(api.requests.filter((r) => r.method !== 'GET').map((r) => r.token));

  beforeAll(async () => {
    // Under Jest, loading @kubernetes/client-node (ESM, turned into CommonJS by SWC) blocks the event loop for
    // seconds: 4.5 s with a warm transform cache, 8.8 s with a cold one as in CI, on an idle machine. The drivers
    // load it on first use, i.e. once a replica leads; every replica shares this process's event loop, so that
    // stall outlasted the 5 s lease (the follower took over) and Prisma transactions. Load it before any lease.
    await loadKubernetesClient();
    scratch = await createScratchPostgresDatabase(process.env.DATABASE_URL as string);
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-reconciler-'));
    api = await startFakeKubernetesApi('replica-a', ['replica-b', 'replica-c', 'replica-d', 'replica-e']);
    const setup = await openControlPlaneDatabase({ url: scratch.url, dataDir: 'memory://' });
    await setup.migrate();
    opened.push(setup);
    ctx = { store: new DeploymentsRepository(setup.prisma), logs: new RevisionLogsRepository(setup.prisma), box, rules: { allowedRepoUrls: ['*'] }, notify: () => running.forEach((r) => r.notify()) };
  });

  afterAll(async () => {
    for (const r of running) await r.stop();
    for (const db of opened) await db.close();
    await api?.close();
    await scratch?.drop();
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    const left = await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${prefix}%`]);
    for (const { datname } of left.rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    const roles = await client.query<{ rolname: string }>('SELECT rolname FROM pg_roles WHERE rolname LIKE $1', [`${prefix}%`]);
    for (const { rolname } of roles.rows) await client.query(`DROP ROLE IF EXISTS "${rolname}"`);
    await client.end();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('lets one replica lead and write; the other takes over when the leader stops', async () => {
    const a = await replica('replica-a');
    const b = await replica('replica-b');
    await waitFor(() => [a.isLeader, b.isLeader], ([x, y]) => x !== y);
    const [leader, follower] = a.isLeader ? [a, b] : [b, a];
    const leaderToken = leader === a ? 'replica-a' : 'replica-b';

    const first = await create('one');
    await waitFor(() => revision(first.revision.id), (r) => r.status === 'DEPLOYED');
    expect(mutatingTokens()).toEqual(new Set([leaderToken]));
    const row = await opened[0].prisma.deployment.findUniqueOrThrow({ where: { id: first.deployment.id } });
    expect(row).toMatchObject({ status: 'READY', activeRevisionId: first.revision.id, upstreamUrl: `http://agent-${first.deployment.id}.agents.svc.cluster.local:8000` });
    const secret = api.object('secrets', 'agents', `agent-${first.deployment.id}-env`);
    expect(Buffer.from(secret?.data.API_TOKEN, 'base64').toString()).toBe('t0k3n');
    // The pod's own key, never the platform's secret.
    expect(secret?.data.INTERNAL_SECRET).toBeUndefined();
    expect(Buffer.from(secret?.data.DEPLOYMENT_KEY, 'base64').toString()).toBe(deploymentKey('internal-secret-0123456789', first.deployment.id));
    // The deployment connects as its own role, to its own database.
    const own = `${prefix}${first.deployment.id.replaceAll('-', '')}`;
    const databaseUrl = new URL(Buffer.from(secret?.data.DATABASE_URL, 'base64').toString());
    expect([databaseUrl.username, databaseUrl.pathname]).toEqual([own, `/${own}`]);

    await leader.stop();
    await waitFor(() => follower.isLeader, (yes) => yes, 10_000);
    const second = await create('two');
    await waitFor(() => revision(second.revision.id), (r) => r.status === 'DEPLOYED');
    const followerToken = leaderToken === 'replica-a' ? 'replica-b' : 'replica-a';
    const secondCalls = api.requests.filter((r) => r.method !== 'GET' && r.path.includes(second.deployment.id));
    expect(new Set(secondCalls.map((r) => r.token))).toEqual(new Set([followerToken]));
  });

  it('fails a rollout that misses its deadline with DEPLOY_FAILED, keeping the active revision', async () => {
    const { deployment, revision: first } = await create('rollout');
    await waitFor(() => revision(first.id), (r) => r.status === 'DEPLOYED');
    api.rollout = 'stuck';
    try {
      const { revision: second } = await ctx.store.addRevision(deployment.id, { sourceConfig: {}, sourceRevisionConfig: { image_uri: 'ghcr.io/acme/agent:2' } });
      ctx.notify?.();
      const failed = await waitFor(() => revision(second.id), (r) => r.status.includes('FAILED'));
      expect(failed.status).toBe('DEPLOY_FAILED');
      expect(failed.statusMessage).toMatch(/Rollout of agent-.* failed: ProgressDeadlineExceeded/);
      // The deploy log, read through the API's use case, tells the same.
      const logs = await listRevisionLogs(ctx, deployment.tenantId, deployment.id, second.id, { type: 'deploy', limit: 50, order: 'asc' });
      expect(logs.entries.map((e) => [e.level, e.message])).toEqual([
        ['INFO', expect.stringMatching(/^Starting the Agent Server of revision .* \(kubernetes driver\)$/)],
        ['ERROR', expect.stringMatching(/ProgressDeadlineExceeded/)],
      ]);
      expect((await opened[0].prisma.deployment.findUniqueOrThrow({ where: { id: deployment.id } })).activeRevisionId).toBe(first.id);
    } finally {
      api.rollout = 'complete';
    }
  });

  it('keeps the deployment on its live revision: not READY while its only revision failed; a replaced revision ends REPLACED', async () => {
    const deploymentRow = (id: string) => opened[0].prisma.deployment.findUniqueOrThrow({ where: { id } });
    api.rollout = 'stuck';
    let deploymentId: string;
    try {
      const { deployment, revision: first } = await create('follows-live');
      deploymentId = deployment.id;
      await waitFor(() => revision(first.id), (r) => r.status.includes('FAILED'));
      expect(await deploymentRow(deploymentId)).toMatchObject({ status: 'DEPLOY_FAILED', activeRevisionId: null });
    } finally {
      api.rollout = 'complete';
    }
    const { revision: second } = await ctx.store.addRevision(deploymentId, { sourceConfig: {}, sourceRevisionConfig: { image_uri: 'ghcr.io/acme/agent:5' } });
    ctx.notify?.();
    await waitFor(() => revision(second.id), (r) => r.status === 'DEPLOYED');
    expect(await deploymentRow(deploymentId)).toMatchObject({ status: 'READY', activeRevisionId: second.id });

    const { revision: third } = await ctx.store.addRevision(deploymentId, { sourceConfig: {}, sourceRevisionConfig: { image_uri: 'ghcr.io/acme/agent:6' } });
    ctx.notify?.();
    await waitFor(() => revision(third.id), (r) => r.status === 'DEPLOYED');
    expect(await revision(second.id)).toMatchObject({ status: 'REPLACED', statusMessage: `Replaced by revision ${third.id}` });
    expect(await deploymentRow(deploymentId)).toMatchObject({ status: 'READY', activeRevisionId: third.id });
  });

  it('after a takeover, redoes a step found in progress, or fails it once out of attempts', async () => {
    for (const r of running.splice(0)) await r.stop();
    const { deployment, revision: first } = await create('interrupted');
    const { revision: exhausted } = await ctx.store.addRevision(deployment.id, { sourceConfig: {}, sourceRevisionConfig: { image_uri: 'ghcr.io/acme/agent:3' } });
    // As a dead leader would have left them: the database made, the revision mid-deploy on its last attempt.
    const location = await new PostgresDeploymentDatabases(process.env.DATABASE_URL as string, prefix).provision(deployment.id);
    await opened[0].prisma.deployment.update({ where: { id: deployment.id }, data: { status: 'READY', database: box.seal(JSON.stringify(location)) } });
    await opened[0].prisma.revision.update({ where: { id: first.id }, data: { status: 'SKIPPED' } });
    await opened[0].prisma.revision.update({ where: { id: exhausted.id }, data: { status: 'DEPLOYING', attempts: 3, artifact: { imageUri: 'ghcr.io/acme/agent:3' } } });
    const c = await replica('replica-c');
    const failed = await waitFor(() => revision(exhausted.id), (r) => r.status !== 'DEPLOYING');
    expect(failed).toMatchObject({ status: 'DEPLOY_FAILED', statusMessage: 'Deploy was interrupted 3 times (control-plane restarts); giving up' });
    await c.stop();
    running.splice(0);

    const { revision: resumable } = await ctx.store.addRevision(deployment.id, { sourceConfig: {}, sourceRevisionConfig: { image_uri: 'ghcr.io/acme/agent:4' } });
    await opened[0].prisma.revision.update({ where: { id: resumable.id }, data: { status: 'DEPLOYING', attempts: 1, artifact: { imageUri: 'ghcr.io/acme/agent:4' } } });
    await replica('replica-d');
    const done = await waitFor(() => revision(resumable.id), (r) => r.status !== 'DEPLOYING');
    expect(done).toMatchObject({ status: 'DEPLOYED', attempts: 2 });
    const pod = api.object('deployments', 'agents', `agent-${deployment.id}`)?.spec.template.spec;
    expect(pod.containers[0].image).toBe('ghcr.io/acme/agent:4');
  });

  it('deletes a deployment: workloads, its database, its rows', async () => {
    const { deployment, revision: first } = await create('doomed');
    await waitFor(() => revision(first.id), (r) => r.status === 'DEPLOYED');
    await ctx.store.markDeleting(deployment.id);
    ctx.notify?.();
    await waitFor(() => opened[0].prisma.deployment.count({ where: { id: deployment.id } }), (n) => n === 0);
    expect(api.object('deployments', 'agents', `agent-${deployment.id}`)).toBeUndefined();
    expect(api.object('secrets', 'agents', `agent-${deployment.id}-env`)).toBeUndefined();
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [`${prefix}${deployment.id.replaceAll('-', '')}`]);
    const role = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [`${prefix}${deployment.id.replaceAll('-', '')}`]);
    await client.end();
    expect([found.rowCount, role.rowCount]).toEqual([0, 0]);
    expect(await opened[0].prisma.revision.count({ where: { deploymentId: deployment.id } })).toBe(0);
  });

  it('gives a deployment made before database roles (its location the admin URL) a role of its own on its next deploy', async () => {
    const { deployment, revision: first } = await create('legacy');
    await waitFor(() => revision(first.id), (r) => r.status === 'DEPLOYED');
    const own = `${prefix}${deployment.id.replaceAll('-', '')}`;
    // As the control plane recorded it before roles: the admin's URL on the deployment's database.
    const legacy = new URL(process.env.DATABASE_URL as string);
    legacy.pathname = `/${own}`;
    await opened[0].prisma.deployment.update({ where: { id: deployment.id }, data: { database: box.seal(JSON.stringify({ kind: 'postgres', url: legacy.toString() })) } });

    const { revision: second } = await ctx.store.addRevision(deployment.id, { sourceConfig: {}, sourceRevisionConfig: { image_uri: 'ghcr.io/acme/agent:7' } });
    ctx.notify?.();
    await waitFor(() => revision(second.id), (r) => r.status === 'DEPLOYED');
    const stored = JSON.parse(box.open((await opened[0].prisma.deployment.findUniqueOrThrow({ where: { id: deployment.id } })).database as string)) as { url: string };
    expect(new URL(stored.url).username).toBe(own);
    const secret = api.object('secrets', 'agents', `agent-${deployment.id}-env`);
    expect(Buffer.from(secret?.data.DATABASE_URL, 'base64').toString()).toBe(stored.url);
    const client = new pg.Client({ connectionString: stored.url });
    await client.connect();
    const [me] = (await client.query('SELECT current_user AS u, current_database() AS d')).rows;
    await client.end();
    expect(me).toEqual({ u: own, d: own });
  });

  it('drops what a provisioning cut off before its record made when the deployment is deleted', async () => {
    for (const r of running.splice(0)) await r.stop();
    // A deployment deleted after its database and role were made but before its location was recorded.
    const row = await opened[0].prisma.deployment.create({
      data: { tenantId: randomUUID(), name: 'cut-off', source: 'external_docker', sourceConfig: {}, sourceRevisionConfig: {}, status: 'AWAITING_DELETE' },
    });
    const own = `${prefix}${row.id.replaceAll('-', '')}`;
    await new PostgresDeploymentDatabases(process.env.DATABASE_URL as string, prefix).provision(row.id);
    await replica('replica-e');
    await waitFor(() => opened[0].prisma.deployment.count({ where: { id: row.id } }), (n) => n === 0);
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1 UNION ALL SELECT 1 FROM pg_roles WHERE rolname = $1', [own]);
    await client.end();
    expect(found.rowCount).toBe(0);
  });
});
