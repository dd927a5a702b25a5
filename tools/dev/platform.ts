// Boots every service of the platform in this one process: the dev launcher (`npm start`) and the end-to-end
// tests use it. Each service keeps its own ports, database and config exactly as when it runs alone; in embedded
// mode (no NATS_URL) the export service and the export worker share one in-process job bus.
import { createHash, randomUUID } from 'node:crypto';
import path from 'node:path';
import { loadAgentServerConfig } from '../../apps/agent-server/src/config';
import { startAgentServer } from '../../apps/agent-server/src/service';
import { loadControlPlaneConfig } from '../../apps/control-plane/src/config';
import { startControlPlane, type RunningControlPlane } from '../../apps/control-plane/src/service';
import { loadExportWorkerConfig } from '../../apps/export-worker/src/config';
import { startExportWorker } from '../../apps/export-worker/src/service';
import { loadExportConfig } from '../../apps/export/src/config';
import { startExport } from '../../apps/export/src/service';
import { loadGatewayConfig } from '../../apps/gateway/src/config';
import { startGateway, type RunningGateway } from '../../apps/gateway/src/service';
import { loadTracingConfig } from '../../apps/tracing/src/config';
import { startTracing } from '../../apps/tracing/src/service';
import { findStaticDeployment, replacedTracingKeys, storedStaticDeployment, upsertStaticDeployment, type StaticDeploymentTracing } from './static-deployment';
import type { exportPartitionQueue } from '@platform/contracts';
import { GatewayTracingKeys } from '@platform/control-plane-drivers';
import { createJobBus, type JobBus } from '@platform/job-bus';
import { deploymentKey } from '@platform/identity';
import { freePort, type RunningService } from '@platform/http-server';
import { createLogger, type Logger } from '@platform/logging';

export const SERVICES = ['gateway', 'control-plane', 'tracing', 'export', 'export-worker', 'agent-server'] as const;
export type ServiceName = (typeof SERVICES)[number];
export const DATABASE_SERVICES = ['gateway', 'control-plane', 'tracing', 'export', 'agent-server'] as const;
/** The deployment the platform's own agent server serves unless told otherwise. */
export const DEFAULT_LANGGRAPH_CONFIG = path.resolve(__dirname, '../../examples/react-agent/langgraph.json');
export type DatabaseService = (typeof DATABASE_SERVICES)[number];

export interface PlatformOptions {
  host?: string;
  /** HTTP ports per service (0 or absent = any free port); the gateway's is the one users need. */
  ports?: Partial<Record<ServiceName, number>>;
  /** gRPC ports (0 or absent = any free port). */
  grpcPorts?: Partial<Record<'control-plane' | 'tracing' | 'export', number>>;
  /** Postgres per service; a service without one runs on PGlite under `dataDir`. */
  databaseUrls?: Partial<Record<DatabaseService, string>>;
  /** Root of the embedded databases (`<dataDir>/<service>`); `memory://` keeps them in memory. */
  dataDir: string;
  /** NATS server, or a comma-separated list of a cluster's seeds; absent = the in-process bus. */
  natsUrl?: string;
  /** Copies of each JetStream stream (NATS_STREAM_REPLICAS; 3 on a 3-node cluster). Default 1. */
  natsStreamReplicas?: number;
  internalSecret: string;
  /** Key for export destination credentials at rest (32 bytes, hex/base64); default: derived from the internal secret. */
  exportEncryptionKey?: string;
  /** Extra export-service variables (EXPORT_RETRY_DELAY, EXPORT_MAX_RUNNING_RUNS_PER_EXPORT, ...), e.g. to shrink timings in tests. */
  exportEnv?: Record<string, string>;
  /** Extra export-worker variables (EXPORT_WORKER_FILE_MAX_ROWS, EXPORT_WORKER_ACK_WAIT, ...). */
  exportWorkerEnv?: Record<string, string>;
  /** The export partition queue (default `exportPartitionQueue`); tests on a shared NATS pass one of their own. */
  exportPartitionQueue?: typeof exportPartitionQueue;
  /**
   * Starts the export worker from its variables (TRACING_GRPC, EXPORT_GRPC, NATS_URL, ...). Default: in this process,
   * on the platform's bus; a test that needs workers as OS processes of its own starts them here.
   */
  startExportWorker?: (env: Record<string, string | undefined>) => Promise<RunningService>;
  /** The agent server's deployment (its langgraph.json); default: the example ReAct agent. */
  langgraphConfigPath?: string;
  /** Extra agent-server variables (N_JOBS_PER_WORKER, RUN_LEASE, LANGSMITH_*, ...). */
  agentServerEnv?: Record<string, string>;
  /**
   * The deployment the platform's agent server serves (default: a new id): it verifies the gateway with that
   * deployment's key alone, so the deployment routed to it must have this id (see static-deployment.ts).
   */
  agentDeploymentId?: string;
  /**
   * Serves the agent server (every replica) as the static deployment of this name (see static-deployment.ts) in
   * the bootstrap workspace, or in the one an earlier start registered it in, and traces its runs as the control
   * plane traces a deployment's: into the tracing project of this name in that workspace, with an API key the
   * gateway minted for the deployment, kept (sealed) on it and reused on later starts. Absent: the agent server is
   * neither registered nor traced (tests register it themselves).
   */
  agentDeploymentName?: string;
  /** Apply each service's migrations before it starts (embedded mode and tests; production uses a release job). */
  migrate?: boolean;
  logLevel?: string;
  logger?: (service: ServiceName) => Logger;
  /** Extra control-plane variables (driver, timeouts, allowed repositories, ...). */
  controlPlaneEnv?: Record<string, string | undefined>;
  /** Extra gateway variables (e.g. DEPLOYMENT_CACHE_TTL, DEPLOYMENT_DOMAIN). */
  gatewayEnv?: Record<string, string | undefined>;
  /** Extra tracing variables. */
  tracingEnv?: Record<string, string>;
  /**
   * Instances of the services that run as several replicas in a cluster (default 1 each): extra agent servers
   * share the first one's database (Postgres only), extra export workers its job bus.
   */
  replicas?: Partial<Record<ReplicatedService, number>>;
  /** Told each time a service has started (the launcher prints it: a first start migrates five databases). */
  onStarted?: (service: RunningService) => void;
}

export const REPLICATED_SERVICES = ['agent-server', 'export-worker'] as const;
export type ReplicatedService = (typeof REPLICATED_SERVICES)[number];

export interface RunningPlatform {
  gatewayUrl: string;
  /** The deployment the platform's agent server (and its replicas) serves. */
  agentDeploymentId: string;
  /** With `agentDeploymentName`: that deployment, unless it was deleted (then its server is neither served nor traced). */
  agentDeployment?: { id: string; name: string; tenantId: string };
  gateway: RunningGateway;
  controlPlane: RunningControlPlane;
  services: Record<ServiceName, RunningService>;
  /** Every instance of the replicated services, the one in `services` first. */
  replicas: Record<ReplicatedService, RunningService[]>;
  /** Stops the gateway first, then the services in reverse start order. */
  stop(): Promise<void>;
}

// A variable given as undefined means "not set": it must not hide the platform's own value for it.
const definedOnly = (env: Record<string, string | undefined> = {}) => Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined));
const str = (n: number | undefined) => String(n ?? 0);
// A stable 32-byte key per purpose from the internal secret (kept in .data/ by the dev launcher).
const derivedKey = (secret: string, purpose: string) => createHash('sha256').update(`${purpose}:${secret}`).digest('hex');

export async function startPlatform(options: PlatformOptions): Promise<RunningPlatform> {
  const host = options.host ?? '127.0.0.1';
  const logLevel = options.logLevel ?? 'info';
  const loggerFor = options.logger ?? ((service) => createLogger({ service, level: logLevel }));
  const common = (service: ServiceName) => ({
    HOST: host,
    PORT: str(options.ports?.[service]),
    LOG_LEVEL: logLevel,
    INTERNAL_SECRET: options.internalSecret,
    DATA_DIR: options.dataDir,
    MIGRATE_ON_START: options.migrate ? 'true' : 'false',
  });
  // The agent server runs a deployment's code: it gets that deployment's key, never the internal secret.
  const agentDeploymentId = options.agentDeploymentId ?? randomUUID();
  const { INTERNAL_SECRET: _secret, ...agentCommon } = common('agent-server');
  const db = (service: DatabaseService) => ({ DATABASE_URL: options.databaseUrls?.[service] });
  const grpc = (service: 'control-plane' | 'tracing' | 'export') => ({ GRPC_PORT: str(options.grpcPorts?.[service]) });
  const address = (port: number | undefined) => `${host}:${port}`;

  const replicaCount = (service: ReplicatedService) => options.replicas?.[service] ?? 1;
  if (replicaCount('agent-server') > 1 && !options.databaseUrls?.['agent-server']) {
    throw new Error('agent-server replicas need Postgres (DATABASE_URL or DATABASE_URL_AGENT_SERVER): an embedded database admits one process');
  }
  const agentServerConfig = (port: number | undefined, tracing: Record<string, string>) =>
    loadAgentServerConfig({
      ...agentCommon,
      DEPLOYMENT_ID: agentDeploymentId,
      DEPLOYMENT_KEY: deploymentKey(options.internalSecret, agentDeploymentId),
      ...(port === 0 ? { PORT: '0' } : {}),
      ...db('agent-server'),
      LANGGRAPH_CONFIG_PATH: options.langgraphConfigPath ?? DEFAULT_LANGGRAPH_CONFIG,
      ...tracing,
      ...options.agentServerEnv,
    });
  const deploymentName = options.agentDeploymentName;

  const started: RunningService[] = [];
  let bus: JobBus | undefined;
  // Every service is stopped even when one of them fails to (the control plane's stop ends its deployments'
  // Agent Servers); the first failure is reported after all were tried.
  const stopAll = async () => {
    const failures: unknown[] = [];
    for (const service of started.reverse()) await service.stop().catch((err: unknown) => failures.push(err));
    await bus?.close().catch((err: unknown) => failures.push(err));
    if (failures.length) throw failures[0];
  };
  // A failed start of one service leaves the ones that did start to be stopped by stopAll.

  try {
    // The control plane must know the gateway's address (deployment URLs, tracing credentials) before it starts.
    const gatewayPort = options.ports?.gateway || (await freePort(host));
    const gatewayUrl = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${gatewayPort}`;
    bus = await createJobBus({ natsUrl: options.natsUrl, streamReplicas: options.natsStreamReplicas, logger: loggerFor('export') });
    const launch = async <S extends RunningService>(start: Promise<S>) => {
      const service = await start;
      started.push(service);
      options.onStarted?.(service);
      return service;
    };
    // Services that depend on no other start together; the worker and the gateway need their peers' ports.
    // The export service checks export filters with tracing, so it starts once tracing's gRPC port is known.
    const tracingStarted = launch(startTracing(loadTracingConfig({ ...common('tracing'), ...db('tracing'), ...grpc('tracing'), ...options.tracingEnv }), loggerFor('tracing')));
    // The agent server and its replicas (they share its database: one after the other, the first migrates it).
    const startAgentServers = async (tracing: Record<string, string>) => {
      const servers = [await launch(startAgentServer(agentServerConfig(undefined, tracing), loggerFor('agent-server')))];
      for (let i = 1; i < replicaCount('agent-server'); i++) servers.push(await launch(startAgentServer(agentServerConfig(0, tracing), loggerFor('agent-server'))));
      return servers;
    };
    const agentTracingEnv = (tenantId: string, key: string): Record<string, string> => ({
      LANGSMITH_TRACING: 'true',
      LANGSMITH_ENDPOINT: `${gatewayUrl}/api/v1`,
      LANGSMITH_API_KEY: key,
      LANGSMITH_PROJECT: deploymentName as string,
      LANGSMITH_WORKSPACE_ID: tenantId,
    });
    const controlPlaneStarted = launch(
      startControlPlane(
        loadControlPlaneConfig({
          ...common('control-plane'),
          ...db('control-plane'),
          ...grpc('control-plane'),
          PUBLIC_URL: gatewayUrl,
          GATEWAY_URL: gatewayUrl,
          // The control plane lives in this process: its Agent Servers stop when it is gone, however it ended.
          AGENT_SERVERS_EXIT_WITH_CONTROL_PLANE: 'true',
          ...definedOnly(options.controlPlaneEnv),
        }),
        loggerFor('control-plane'),
      ),
    );
    // A deployment registered by an earlier start holds its workspace and tracing key: its servers start as soon as
    // the control plane can tell (startup stays parallel). The first start waits for the gateway to mint the key.
    const stored = deploymentName ? controlPlaneStarted.then((cp) => storedStaticDeployment(cp, agentDeploymentId)) : Promise.resolve(null);
    const earlyAgents = deploymentName
      ? stored.then((found) => (found?.tracing ? startAgentServers(agentTracingEnv(found.tenantId, found.tracing.key)) : undefined))
      : startAgentServers({});
    const [controlPlane, tracing, exportService, startedAgents] = await Promise.all([
      controlPlaneStarted,
      tracingStarted,
      tracingStarted.then((tracingService) =>
        launch(
          startExport(
            loadExportConfig({
              ...common('export'),
              ...db('export'),
              ...grpc('export'),
              NATS_URL: options.natsUrl,
              NATS_STREAM_REPLICAS: options.natsStreamReplicas === undefined ? undefined : String(options.natsStreamReplicas),
              TRACING_GRPC: address(tracingService.grpcPort),
              EXPORT_ENCRYPTION_KEY: options.exportEncryptionKey ?? derivedKey(options.internalSecret, 'export-credentials'),
              ...options.exportEnv,
            }),
            loggerFor('export'),
            { bus, partitionQueue: options.exportPartitionQueue },
          ),
        ),
      ),
      earlyAgents,
    ]);
    const startWorker = (port?: number) => {
      const workerEnv = {
        ...common('export-worker'),
        ...(port === 0 ? { PORT: '0' } : {}),
        NATS_URL: options.natsUrl,
        NATS_STREAM_REPLICAS: options.natsStreamReplicas === undefined ? undefined : String(options.natsStreamReplicas),
        TRACING_GRPC: address(tracing.grpcPort),
        EXPORT_GRPC: address(exportService.grpcPort),
        ...options.exportWorkerEnv,
      };
      return launch(
        options.startExportWorker
          ? options.startExportWorker(workerEnv)
          : startExportWorker(loadExportWorkerConfig(workerEnv), loggerFor('export-worker'), { bus, queue: options.exportPartitionQueue }),
      );
    };
    const exportWorker = await startWorker();
    // Extra replicas listen on ports of their own; they run the same code on the same database and bus.
    const workers = [exportWorker];
    for (let i = 1; i < replicaCount('export-worker'); i++) workers.push(await startWorker(0));
    const gateway = await launch(
      startGateway(
        loadGatewayConfig({
          ...common('gateway'),
          PORT: String(gatewayPort),
          ...db('gateway'),
          CONTROL_PLANE_URL: controlPlane.url,
          TRACING_URL: tracing.url,
          EXPORT_URL: exportService.url,
          CONTROL_PLANE_GRPC: address(controlPlane.grpcPort),
          ...options.gatewayEnv,
        }),
        loggerFor('gateway'),
      ),
    );
    let agentServers = startedAgents;
    let agentDeployment: RunningPlatform['agentDeployment'];
    if (deploymentName) {
      const keys = new GatewayTracingKeys({ gatewayUrl, internalSecret: options.internalSecret });
      const earlier = await stored;
      // Its workspace: the bootstrap's on a first start, else the one an earlier start registered it in (under this
      // id or, before the id was kept, another); none when someone deleted it: it stays deleted, its server untraced.
      const tenantId = gateway.bootstrap?.workspace.id ?? earlier?.tenantId ?? (await findStaticDeployment(controlPlane, deploymentName))?.tenantId;
      let tracingKey: StaticDeploymentTracing | undefined = earlier?.tenantId === tenantId ? earlier?.tracing : undefined;
      if (agentServers && !tracingKey) {
        // Started with the key of a workspace this gateway does not have (its database was reset, not the control
        // plane's): they start again with one of the right workspace.
        for (const server of agentServers) {
          await server.stop();
          started.splice(started.indexOf(server), 1);
        }
        agentServers = undefined;
      }
      if (tenantId && !tracingKey) {
        const workspace = await gateway.findWorkspace(tenantId);
        if (workspace) {
          const owner = { tenantId, organizationId: workspace.organizationId };
          const minted = await keys.mint(owner, `Tracing for deployment ${deploymentName} (${agentDeploymentId})`);
          tracingKey = { organizationId: workspace.organizationId, keyId: minted.id, key: minted.key };
        }
      }
      agentServers ??= await startAgentServers(tenantId && tracingKey ? agentTracingEnv(tenantId, tracingKey.key) : {});
      if (tenantId) {
        // Registering it under this id deletes the name's static deployments under other ids: their keys go too.
        for (const old of await replacedTracingKeys(controlPlane, { id: agentDeploymentId, tenantId, name: deploymentName })) {
          await keys.revoke({ tenantId: old.tenantId, organizationId: old.organizationId }, old.keyId);
        }
        const replicaUrls = agentServers.map((server) => server.url);
        await upsertStaticDeployment(controlPlane, { tenantId, name: deploymentName, upstreamUrl: replicaUrls[0], replicaUrls, id: agentDeploymentId, tracing: tracingKey });
        agentDeployment = { id: agentDeploymentId, name: deploymentName, tenantId };
      }
    }
    // (With no deployment name they started with the other services.)
    const servers = agentServers ?? (await startAgentServers({}));
    const replicas: Record<ReplicatedService, RunningService[]> = { 'agent-server': servers, 'export-worker': workers };
    return {
      gatewayUrl: gateway.url,
      agentDeploymentId,
      agentDeployment,
      gateway,
      controlPlane,
      services: {
        gateway,
        'control-plane': controlPlane,
        tracing,
        export: exportService,
        'export-worker': exportWorker,
        'agent-server': servers[0],
      },
      replicas,
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
