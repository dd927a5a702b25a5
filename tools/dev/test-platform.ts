// The whole platform for end-to-end tests: every service in-process, each on a database of its own (a scratch
// Postgres database when DATABASE_URL is set, else in-memory PGlite), the bus on NATS when NATS_URL is set.
import { randomUUID } from 'node:crypto';
import { closeToPublic, databaseOf, exactly } from '@platform/control-plane-drivers';
import { deploymentKey } from '@platform/identity';
import { silentLogger } from '@platform/logging';
import { TEST_EGRESS_ENV } from '@platform/export-s3/testing';
import { createTestDatabase, type TestDatabase } from '@platform/testing';
import { upsertStaticDeployment } from './static-deployment';
import { DATABASE_SERVICES, startPlatform, type DatabaseService, type PlatformOptions, type RunningPlatform } from './platform';

export const TEST_INTERNAL_SECRET = 'e2e-internal-secret-0123456789';

export interface TestPlatform extends RunningPlatform {
  databases: Record<DatabaseService, TestDatabase>;
  /** The bootstrap admin key and its workspace. */
  adminKey: string;
  workspaceId: string;
  /**
   * The deployment each Agent Server serves, by URL (the platform's own, and those `serving` records): an Agent
   * Server verifies only its deployment's key, so the route to it must carry that deployment's id.
   */
  servedDeployments: Map<string, string>;
}

/**
 * An Agent Server's variables for deployment `id` (default a new one): DEPLOYMENT_ID and the DEPLOYMENT_KEY the
 * test platform's gateway signs that deployment's requests with.
 */
export function testDeploymentEnv(id: string = randomUUID()): { DEPLOYMENT_ID: string; DEPLOYMENT_KEY: string } {
  return { DEPLOYMENT_ID: id, DEPLOYMENT_KEY: deploymentKey(TEST_INTERNAL_SECRET, id) };
}

/** Records that the Agent Server at `url` serves `deploymentId` (registerDeployment routes to it under that id). */
export function serving(platform: TestPlatform, url: string, deploymentId: string): void {
  platform.servedDeployments.set(url, deploymentId);
}

/** What a test may change about the platform it starts. */
export interface TestPlatformOptions {
  /** The platform agent server's langgraph.json (default: the example ReAct agent). */
  langgraphConfigPath?: string;
  /** Extra agent-server variables, e.g. shorter leases. */
  agentServerEnv?: Record<string, string>;
  /** Extra control-plane variables (allowed repositories, timeouts, work directory, ...). */
  controlPlaneEnv?: Record<string, string | undefined>;
  /** Extra gateway variables (deployment cache TTL, wildcard domain). */
  gatewayEnv?: Record<string, string | undefined>;
  /** Extra tracing variables. */
  tracingEnv?: Record<string, string>;
  /** Extra export-service and export-worker variables (shorter retry delays, smaller files, ...). */
  exportEnv?: Record<string, string>;
  exportWorkerEnv?: Record<string, string>;
  /** A partition queue of the test's own, so platforms of tests running at once on one NATS never share jobs. */
  exportPartitionQueue?: PlatformOptions['exportPartitionQueue'];
  /** Export workers of the test's own (e.g. OS processes) instead of the one in this process. */
  startExportWorker?: PlatformOptions['startExportWorker'];
  /** Instances of the replicated services (agent-server, export-worker). */
  replicas?: PlatformOptions['replicas'];
  /** The NATS the bus uses (default NATS_URL; a fault test passes a scratch cluster's seeds) and its stream replicas. */
  natsUrl?: string;
  natsStreamReplicas?: number;
  /**
   * Serves the platform's agent server as this deployment of the bootstrap workspace, traced, as the dev launcher
   * does (`npm start`, `agent-platform up`); default: not registered, not traced.
   */
  agentDeploymentName?: string;
}

export async function startTestPlatform(options: TestPlatformOptions = {}): Promise<TestPlatform> {
  const databases = Object.fromEntries(
    await Promise.all(DATABASE_SERVICES.map(async (s) => [s, await createTestDatabase()] as const)),
  ) as Record<DatabaseService, TestDatabase>;
  const dropAll = () => Promise.all(Object.values(databases).map((d) => d.drop()));
  let platform: RunningPlatform;
  try {
    // As the launcher leaves the services' databases: CONNECT revoked from PUBLIC, so a deployment's role (on the
    // same server) reaches none of them.
    const adminUrl = process.env.DATABASE_URL?.trim();
    const urls = Object.values(databases).flatMap((d) => (d.url ? [d.url] : []));
    if (adminUrl && urls.length) await closeToPublic(adminUrl, urls.map((url) => exactly(databaseOf(url))));
    platform = await startPlatform({
      dataDir: 'memory://',
      databaseUrls: Object.fromEntries(DATABASE_SERVICES.map((s) => [s, databases[s].url])),
      natsUrl: options.natsUrl ?? (process.env.NATS_URL || undefined),
      natsStreamReplicas: options.natsStreamReplicas,
      internalSecret: TEST_INTERNAL_SECRET,
      migrate: true,
      logger: () => silentLogger,
      langgraphConfigPath: options.langgraphConfigPath,
      // Run webhooks in the tests go to receivers on 127.0.0.1: allowed as an operator would allow an internal one.
      agentServerEnv: { EGRESS_ALLOWED_CIDRS: '127.0.0.1/32', ...options.agentServerEnv },
      controlPlaneEnv: options.controlPlaneEnv,
      gatewayEnv: options.gatewayEnv,
      tracingEnv: options.tracingEnv,
      // s3rver and the tests' fault proxies listen on 127.0.0.1: allowed here as an operator allows a local MinIO.
      exportEnv: { ...TEST_EGRESS_ENV, ...options.exportEnv },
      exportWorkerEnv: { ...TEST_EGRESS_ENV, ...options.exportWorkerEnv },
      exportPartitionQueue: options.exportPartitionQueue,
      startExportWorker: options.startExportWorker,
      replicas: options.replicas,
      agentDeploymentName: options.agentDeploymentName,
    });
  } catch (err) {
    await dropAll();
    throw err;
  }
  const bootstrap = platform.gateway.bootstrap;
  if (!bootstrap) throw new Error('a fresh platform must bootstrap its identity');
  return {
    ...platform,
    databases,
    adminKey: bootstrap.apiKey,
    workspaceId: bootstrap.workspace.id,
    servedDeployments: new Map(platform.replicas['agent-server'].map((r) => [r.url, platform.agentDeploymentId])),
    stop: async () => {
      await platform.stop();
      await dropAll();
    },
  };
}

/**
 * Makes an agent server reachable through the gateway at `/deployments/{id}` of the admin key's workspace, as a
 * READY deployment of the control plane pointing at `upstreamUrl`; returns the deployment id: `id`, else the one the
 * server at `upstreamUrl` serves (servedDeployments), else a new one.
 */
export function registerDeployment(platform: TestPlatform, options: { upstreamUrl: string; replicaUrls?: string[]; name?: string; id?: string }): Promise<string> {
  return upsertStaticDeployment(platform.controlPlane, {
    id: options.id ?? platform.servedDeployments.get(options.upstreamUrl),
    tenantId: platform.workspaceId,
    name: options.name ?? `e2e-${randomUUID().slice(0, 8)}`,
    upstreamUrl: options.upstreamUrl,
    replicaUrls: options.replicaUrls,
  });
}
