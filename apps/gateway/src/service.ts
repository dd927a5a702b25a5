import path from 'node:path';
import { serviceDataDir } from '@platform/config';
import { deploymentsService, type DeploymentsClient } from '@platform/contracts';
import { IdentityRepository, openGatewayDatabase } from '@platform/gateway-data-access';
import { Authenticator, CachingIdentityStore, bootstrapIdentity, listenForIdentityChanges, type BootstrapResult, type Workspace } from '@platform/gateway-identity';
import { cachedResolver } from '@platform/gateway-routing';
import { callUnary, createClient } from '@platform/grpc';
import { Lifecycle, slowClientLimits, startHttpServer, type RunningService } from '@platform/http-server';
import type { Logger } from '@platform/logging';
import { defaultWorkspaceLimits } from '@platform/rate-limit';
import { createGatewayApp } from './app';
import type { GatewayConfig } from './config';

export interface RunningGateway extends RunningService {
  /** Set on the first start with an empty database: the admin key, shown this once. */
  bootstrap: BootstrapResult | null;
  /** Workspace `id` (with its organization), or null (the dev launcher finds its deployment's organization here). */
  findWorkspace(id: string): Promise<Workspace | null>;
}

export function openDatabase(config: GatewayConfig, logger?: Logger) {
  return openGatewayDatabase({ url: config.DATABASE_URL, dataDir: serviceDataDir(config.DATA_DIR, 'gateway'), logger });
}

export function startGateway(config: GatewayConfig, logger: Logger): Promise<RunningGateway> {
  return Lifecycle.start(logger, async (lifecycle) => {
    const db = await lifecycle.use('database', openDatabase(config, logger), (d) => d.close());
    await db.prepare({ migrate: config.MIGRATE_ON_START });
    // Keys, workspaces and browser sessions are read from memory on each request; revocations and sign-outs reach
    // every replica through NOTIFY.
    const changes = await lifecycle.use('identity changes', listenForIdentityChanges(db.notifications), (feed) => feed.close());
    const store = new CachingIdentityStore(new IdentityRepository(db.prisma), changes, { ttlMs: config.IDENTITY_CACHE_TTL });
    const bootstrap = await bootstrapIdentity(store);

    const controlPlane: DeploymentsClient = await lifecycle.use(
      'control-plane client',
      createClient(deploymentsService().Client, config.CONTROL_PLANE_GRPC, {
        token: config.INTERNAL_SECRET,
        defaultDeadlineMs: config.GRPC_DEADLINE,
      }),
      (client) => client.close(),
    );
    const resolveDeployment = cachedResolver(
      async (deploymentId, tenantId, requestId) => {
        const found = await callUnary(controlPlane, 'ResolveDeployment', { deployment_id: deploymentId, tenant_id: tenantId }, {
          deadlineMs: config.GRPC_DEADLINE,
          retries: 2,
          requestId,
        });
        return { deploymentId: found.deployment_id, tenantId: found.tenant_id, upstreamUrl: found.upstream_url, replicaUrls: found.replica_urls };
      },
      { ttlMs: config.DEPLOYMENT_CACHE_TTL },
    );

    const app = createGatewayApp({
      logger,
      store,
      authenticator: new Authenticator(store),
      resolveDeployment,
      upstreams: { 'control-plane': config.CONTROL_PLANE_URL, tracing: config.TRACING_URL, export: config.EXPORT_URL },
      internalSecret: config.INTERNAL_SECRET,
      proxyTimeoutMs: config.PROXY_TIMEOUT,
      upstreamRetryWindowMs: config.UPSTREAM_RETRY_WINDOW,
      deploymentDomain: config.DEPLOYMENT_DOMAIN,
      limits: { defaults: defaultWorkspaceLimits(config), replicas: config.RATE_LIMIT_REPLICAS },
      readiness: { database: () => db.ready() },
      browserSessions: { ttlMs: config.SESSION_TTL },
      consoleDir: path.resolve(config.CONSOLE_DIR),
    });
    // Proxied requests bypass express's router (proxiedFirst), not its prototypes: born with them (expressMessages).
    const http = await lifecycle.use('http', startHttpServer(app, config.HOST, config.PORT, { express: app.express, ...slowClientLimits(config) }), (h) => h.close());
    return { name: 'gateway', url: http.url, bootstrap, findWorkspace: (id) => store.findWorkspace(id) };
  });
}

/** The once-only banner with the bootstrap admin key. */
export function bootstrapBanner(result: BootstrapResult, gatewayUrl: string): string {
  return [
    '',
    '  First start: created organization, workspace and an admin API key.',
    `  Workspace (X-Tenant-Id): ${result.workspace.id}`,
    `  Admin API key (X-Api-Key): ${result.apiKey}`,
    '  The key is shown only this once; store it now.',
    `  Try: curl -H "X-Api-Key: ${result.apiKey}" ${gatewayUrl}/api/v1/workspaces`,
    '',
  ].join('\n');
}
