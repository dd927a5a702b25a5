import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { closeDataDir, serviceDataDir } from '@platform/config';
import { egressPolicyFromConfig } from '@platform/egress';
import { deploymentsService } from '@platform/contracts';
import { Builder } from '@platform/control-plane-builder';
import {
  DeploymentsRepository,
  InstancesRepository,
  OAuthRepository,
  openControlPlaneDatabase,
  ReconcilerRepository,
  RevisionLogsRepository,
  type ControlPlaneDatabase,
} from '@platform/control-plane-data-access';
import type { DeploymentsContext } from '@platform/control-plane-deployments';
import {
  GatewayTracingKeys,
  KubernetesDriver,
  LocalDriver,
  PgliteDeploymentDatabases,
  PostgresDeploymentDatabases,
  type DeploymentDriver,
  type UpstreamListener,
} from '@platform/control-plane-drivers';
import { integrationToken, type OAuthContext } from '@platform/control-plane-oauth';
import { Reconciler } from '@platform/control-plane-reconciler';
import { SecretBox, encryptionKey } from '@platform/control-plane-secrets';
import { startGrpcServer } from '@platform/grpc';
import { Lifecycle, slowClientLimits, startHttpServer, type RunningService } from '@platform/http-server';
import type { Logger } from '@platform/logging';
import { createControlPlaneApp } from './app';
import { workDir, type ControlPlaneConfig } from './config';
import { deploymentsHandlers } from './grpc/deployments.handlers';

export interface RunningControlPlane extends RunningService {
  reconciler: Reconciler;
  /** Its database (end-to-end tests inspect what is stored). */
  prisma: ControlPlaneDatabase['prisma'];
  /** Seals the secrets it keeps (a static deployment's tracing key is kept sealed with it, as the reconciler's are). */
  box: SecretBox;
}

export function openDatabase(config: ControlPlaneConfig, logger?: Logger) {
  return openControlPlaneDatabase({ url: config.DATABASE_URL, dataDir: serviceDataDir(config.DATA_DIR, 'control-plane'), logger });
}

function createDriver(config: ControlPlaneConfig, logger: Logger, instances: InstancesRepository, work: string, onUpstreamChange: UpstreamListener): DeploymentDriver {
  if (config.DEPLOYMENT_DRIVER === 'kubernetes') {
    return new KubernetesDriver({
      kubeConfig: (k8s) => {
        const kc = new k8s.KubeConfig();
        if (config.KUBECONFIG) kc.loadFromFile(config.KUBECONFIG);
        else kc.loadFromDefault();
        return kc;
      },
      namespace: config.K8S_NAMESPACE,
      agentServerImage: config.K8S_AGENT_SERVER_IMAGE,
      agentServerCommand: config.K8S_AGENT_SERVER_COMMAND,
      gitImage: config.K8S_GIT_IMAGE,
      imagePullPolicy: config.K8S_IMAGE_PULL_POLICY,
      clusterDomain: config.K8S_CLUSTER_DOMAIN,
      autoscaler: config.K8S_AUTOSCALER,
      kedaPrometheusUrl: config.K8S_KEDA_PROMETHEUS_URL,
      rolloutTimeoutMs: config.DEPLOY_TIMEOUT,
      logger: logger.child({ driver: 'kubernetes' }),
    });
  }
  const [command, ...args] = config.AGENT_SERVER_COMMAND;
  const resolved = command.includes('/') ? path.resolve(config.PLATFORM_ROOT, command) : command;
  // As root, deployments run as users of their own (see the local driver): the data folder around the work
  // directory (embedded databases, the internal secret) is closed to them.
  if (process.getuid?.() === 0 && path.dirname(work) === path.resolve(config.DATA_DIR)) closeDataDir(config.DATA_DIR, { open: [path.basename(work)] });
  return new LocalDriver({
    workDir: work,
    command: [resolved, ...args],
    cwd: config.PLATFORM_ROOT,
    host: config.HOST,
    logDir: path.join(work, 'logs'),
    instances,
    logger: logger.child({ driver: 'local' }),
    onUpstreamChange,
    healthTimeoutMs: config.DEPLOY_TIMEOUT,
    drainMs: config.DRAIN_PERIOD,
    exitWithParent: config.AGENT_SERVERS_EXIT_WITH_CONTROL_PLANE,
  });
}

export function startControlPlane(config: ControlPlaneConfig, logger: Logger): Promise<RunningControlPlane> {
  return Lifecycle.start(logger, async (lifecycle) => {
    const db = await lifecycle.use('database', openDatabase(config, logger), (d) => d.close());
    await db.prepare({ migrate: config.MIGRATE_ON_START });
    const box = new SecretBox(encryptionKey(config.ENCRYPTION_KEY ?? config.INTERNAL_SECRET), config.ENCRYPTION_KEYS_PREVIOUS.map((k) => encryptionKey(k)));
    const work = workDir(config);
    const sourcesDir = path.join(work, 'sources');
    // Checked at the API and again at fetch time: the platform's checkout and its data are never a source.
    const sources = {
      allowedRepoUrls: config.GIT_ALLOWED_URLS,
      uploadsRoot: sourcesDir,
      protectedPaths: [config.PLATFORM_ROOT, work, ...(config.DATA_DIR && !config.DATA_DIR.startsWith('memory:') ? [config.DATA_DIR] : [])],
      egress: egressPolicyFromConfig(config),
    };
    const gatewayUrl = config.GATEWAY_URL ?? config.PUBLIC_URL;
    const publicUrl = config.PUBLIC_URL ?? gatewayUrl;
    const urls = { publicUrl, wildcardDomain: config.DEPLOYMENT_DOMAIN };

    const oauth: OAuthContext = {
      store: new OAuthRepository(db.prisma),
      box,
      publicUrl: publicUrl ?? `http://127.0.0.1:${config.PORT}`,
      frontendCallbackUrl: config.OAUTH_CALLBACK_PAGE_URL ?? (publicUrl ? `${publicUrl.replace(/\/+$/, '')}/console/oauth/callback` : undefined),
      flowTtlMs: config.OAUTH_FLOW_TTL,
    };
    // The driver reports restarts to the reconciler, which is made with the driver: bound once both exist.
    const upstreams: { listener?: (id: string, url: string) => Promise<void> } = {};
    const driver = createDriver(config, logger, new InstancesRepository(db.prisma), work, (id, url) => upstreams.listener?.(id, url) ?? Promise.resolve());
    const revisionLogs = new RevisionLogsRepository(db.prisma);
    const holder = config.REPLICA_ID ?? `${os.hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
    const reconciler = new Reconciler({
      records: ReconcilerRepository.forHolder(db.prisma, holder, config.RECONCILER_LEASE_TTL),
      revisionLogs,
      driver,
      builder: new Builder({ platformRoot: config.PLATFORM_ROOT, timeoutMs: config.BUILD_TIMEOUT, defaultInstallCommand: config.INSTALL_COMMAND, sources }),
      databases: config.DEPLOYMENTS_DATABASE_URL
        ? new PostgresDeploymentDatabases(config.DEPLOYMENTS_DATABASE_URL, config.DEPLOYMENTS_DATABASE_PREFIX, (message) => logger.warn(message))
        : new PgliteDeploymentDatabases(path.join(work, 'databases')),
      tracingKeys: gatewayUrl ? new GatewayTracingKeys({ gatewayUrl, internalSecret: config.INTERNAL_SECRET }) : undefined,
      box,
      integrationToken: (tenantId, id) => integrationToken(oauth, tenantId, id),
      logger: logger.child({ component: 'reconciler' }),
      options: {
        pollIntervalMs: config.RECONCILER_POLL_INTERVAL,
        maxAttempts: config.RECONCILER_MAX_ATTEMPTS,
        maxConcurrentBuilds: config.MAX_CONCURRENT_BUILDS,
        workDir: work,
        defaultInstallCommand: config.INSTALL_COMMAND,
        agentEnv: {
          internalSecret: config.INTERNAL_SECRET,
          previousSecrets: config.INTERNAL_SECRETS_PREVIOUS,
          logLevel: config.AGENT_LOG_LEVEL ?? config.LOG_LEVEL,
          tracingEndpoint: gatewayUrl ? `${gatewayUrl.replace(/\/+$/, '')}/api/v1` : undefined,
          egress: { cidrs: config.DEPLOYMENT_EGRESS_ALLOWED_CIDRS, hosts: config.DEPLOYMENT_EGRESS_ALLOWED_HOSTS },
        },
      },
    });
    upstreams.listener = (id, url) => reconciler.recordUpstream(id, url);
    const deployments: DeploymentsContext = {
      store: new DeploymentsRepository(db.prisma),
      logs: revisionLogs,
      box,
      rules: sources,
      integrationExists: async (tenantId, id) => (await integrationToken(oauth, tenantId, id)) !== null,
      notify: () => reconciler.notify(),
    };

    const grpc = await lifecycle.use(
      'grpc',
      startGrpcServer({
        host: config.HOST,
        port: config.GRPC_PORT,
        logger,
        auth: { token: config.INTERNAL_SECRET },
        services: [deploymentsService().implement(deploymentsHandlers(deployments.store))],
      }),
      (g) => g.shutdown(),
    );
    const app = createControlPlaneApp({
      logger,
      internalSecret: config.INTERNAL_SECRET,
      deployments,
      oauth,
      urls,
      readiness: { database: () => db.ready() },
      sourcesDir,
    });
    const http = await lifecycle.use('http', startHttpServer(app, config.HOST, config.PORT, slowClientLimits(config)), (h) => h.close());
    // Last to start, first to stop: in-flight builds and deploys are handed back before the database closes.
    const running = await lifecycle.use('reconciler', reconciler, (r) => r.stop());
    running.start();
    return { name: 'control-plane', url: http.url, grpcPort: grpc.port, reconciler: running, prisma: db.prisma, box };
  });
}
