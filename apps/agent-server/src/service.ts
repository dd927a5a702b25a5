import { randomBytes } from 'node:crypto';
import type { RequestListener } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CheckpointsRepository, DevTablesRepository } from '@platform/agent-server-data-access';
import { PrismaStore, startStoreTtlSweeper } from '@platform/agent-server-data-access/store';
import { PrismaCheckpointSaver } from '@platform/agent-server-checkpointer';
import { createAssistantRepository, syncSystemAssistants } from '@platform/agent-server-assistants';
import { loadDeploymentAuth } from '@platform/agent-server-auth';
import { CronScheduler, createCronRepository } from '@platform/agent-server-crons';
import {
  bundleGraphUi,
  createGraphRegistry,
  createTypeScriptSchemaSource,
  loadLangGraphProject,
  loadStoreEmbeddings,
  missingEnvFileNote,
  platformNodeModules,
  prepareTypeSchemas,
  type GraphRegistry,
  type LangGraphProject,
} from '@platform/agent-server-graphs';
import { createRunService } from '@platform/agent-server-runs';
import { egressPolicyFromConfig } from '@platform/egress';
import { runCreateSchema } from '@platform/agent-server-run-records';
import { parseStoreSettings } from '@platform/agent-server-store';
import { createThreadRepository, createThreadStateService } from '@platform/agent-server-threads';
import { serviceDataDir } from '@platform/config';
import { Lifecycle, slowClientLimits, startHttpServer, type RunningService } from '@platform/http-server';
import type { Logger } from '@platform/logging';
import { createAgentServerMetrics } from './agent-server.metrics';
import { createAgentServerApp, isOpenPath, isPublicPath } from './app';
import type { AgentServerConfig } from './config';
import { CALLER_HEADER, CallerHandoff } from './custom-app/caller-handoff';
import { createCustomAppFront } from './custom-app/custom-app.front';
import { loadCustomApp } from './custom-app/load-custom-app';
import { openDatabase } from './database';
import { startDevReload } from './dev/dev-reload';
import { reloadableRegistry } from './dev/reloadable-registry';
import { devTruncate } from './dev/truncate';
import { mountAt } from './http/common/mount-prefix';
import { installSdkGlobals } from './sdk/sdk-globals';

function schemaCacheDir(config: AgentServerConfig): string {
  if (config.GRAPH_SCHEMA_CACHE_DIR) return path.resolve(config.GRAPH_SCHEMA_CACHE_DIR);
  const dataDir = serviceDataDir(config.DATA_DIR, 'agent-server');
  return dataDir === 'memory://' ? path.join(tmpdir(), 'agent-server-graph-schemas') : path.resolve(dataDir, 'graph-schemas');
}

export const AGENT_SERVER_VERSION = '0.1.0';

/**
 * Starts in order: database → graphs and auth (the deployment's langgraph.json) → system assistants → run workers → HTTP.
 * Shutdown first stops the workers (runs go back to the queue at a superstep boundary, leases released, so
 * another replica resumes them) and ends streams, then closes HTTP, then the database.
 */
export function startAgentServer(config: AgentServerConfig, logger: Logger): Promise<RunningService> {
  return Lifecycle.start(logger, async (lifecycle) => {
    const db = await lifecycle.use('database', openDatabase(config, logger), (d) => d.close());
    await db.prepare({ migrate: config.MIGRATE_ON_START });

    // The deployment's key, which verifies the gateway's requests for this deployment only; the dev server (no
    // gateway) makes one up for the in-process SDK's calls.
    const deploymentKey = config.DEPLOYMENT_KEY ?? randomBytes(32).toString('base64url');
    // Before the deployment's modules load: they may take `getLogger()` at import.
    const loopback = installSdkGlobals(logger, { secret: deploymentKey, deploymentId: config.DEPLOYMENT_ID });
    const project = await loadLangGraphProject(config.LANGGRAPH_CONFIG_PATH, { langgraphConfig: config.LANGGRAPH_CONFIG });
    for (const warning of project.warnings) logger.warn({ config: project.configPath }, warning);
    if (project.missingEnvFile) {
      const note = missingEnvFileNote(project.missingEnvFile, config.LANGGRAPH_DEV);
      logger[note.level]({ config: project.configPath }, note.message);
    }
    // Before anything listens: a module that does not load stops the start (never a server without its auth).
    const auth = project.auth ? await loadDeploymentAuth(project.auth.path, project.dir) : undefined;
    if (project.auth) logger.info({ auth: project.auth.path }, 'auth: the deployment authenticates every request');
    const customApp = project.http.app ? await loadCustomApp(project.http.app, project.dir) : undefined;
    const uiEntries = project.http.disable_ui ? {} : project.ui.entries;
    const ui = await bundleGraphUi(uiEntries, { dir: project.dir, shared: project.ui.shared });
    if (Object.keys(ui).length > 0) logger.info({ graphs: Object.keys(ui) }, 'ui: components bundled');
    if (customApp) logger.info({ app: project.http.app }, 'http.app: the project\'s routes and middleware come first');
    if (project.http.middleware_order === 'middleware_first') {
      logger.warn('http.middleware_order: only auth_first is served (the deployment auth runs before the project\'s middleware)');
    }
    const checkpointer = new PrismaCheckpointSaver(db.prisma);
    const storeSettings = parseStoreSettings(project.store);
    const indexed = storeSettings.index;
    const index = indexed && { ...indexed, embeddings: await loadStoreEmbeddings(indexed.embed, project.dir) };
    if (indexed) logger.info({ embed: indexed.embed, dims: indexed.dims, fields: indexed.fields }, 'store: semantic search on');
    const store = new PrismaStore(db.prisma, { ttl: storeSettings.ttl, index });
    // The schemas read from TypeScript types, in the background once the server listens (no request waits on them).
    const prepareSchemas = (graphs: GraphRegistry) => {
      if (!config.LANGGRAPH_SCHEMAS_AT_START) return;
      const started = Date.now();
      prepareTypeSchemas(graphs).then(
        (read) => read.length > 0 && logger.info({ graphs: read, ms: Date.now() - started }, 'graph schemas ready'),
        (err: unknown) => logger.warn({ err }, 'graph schemas: cannot read them ahead of the first request'),
      );
    };
    const graphsOf = (loaded: LangGraphProject) =>
      createGraphRegistry({
        graphs: loaded.graphs,
        checkpointer,
        store,
        typeSchemas: createTypeScriptSchemaSource({
          graphs: loaded.graphs,
          cacheDir: schemaCacheDir(config),
          projectDir: loaded.dir,
          timeoutMs: config.LANGGRAPH_SCHEMA_RESOLVE_TIMEOUT_MS,
          fallbackNodeModules: platformNodeModules(),
          logger,
        }),
      });
    // The dev server swaps in new graphs when the project's files change; a deployment's never change.
    const registry = reloadableRegistry(graphsOf(project));
    const assistants = createAssistantRepository(db.prisma);
    await syncSystemAssistants(assistants, registry, project.defaults);
    logger.info({ graphs: registry.ids(), config: project.configPath }, 'graphs loaded');
    if (config.LANGGRAPH_DEV && config.LANGGRAPH_DEV_RELOAD) {
      const reload = async () => {
        const loaded = await loadLangGraphProject(config.LANGGRAPH_CONFIG_PATH, { langgraphConfig: config.LANGGRAPH_CONFIG });
        const reloaded = graphsOf(loaded);
        prepareSchemas(reloaded);
        return { project: loaded, registry: reloaded };
      };
      const watcher = startDevReload({ dir: project.dir, load: reload, registry, assistants, logger });
      lifecycle.onShutdown('dev-reload', () => watcher.close());
    }

    const threads = createThreadRepository(db.prisma);
    const state = createThreadStateService({ registry, checkpointer, threads, checkpoints: new CheckpointsRepository(db.prisma) });
    const tracing =
      config.LANGSMITH_TRACING && config.LANGSMITH_ENDPOINT
        ? {
            endpoint: config.LANGSMITH_ENDPOINT,
            apiKey: config.LANGSMITH_API_KEY,
            project: config.LANGSMITH_PROJECT,
            workspaceId: config.LANGSMITH_WORKSPACE_ID,
          }
        : undefined;
    const runs = createRunService({
      sql: db.sql,
      notifications: db.notifications,
      registry,
      checkpointer,
      assistants,
      logger,
      settings: {
        concurrency: config.N_JOBS_PER_WORKER,
        leaseMs: config.RUN_LEASE,
        heartbeatMs: config.RUN_HEARTBEAT_INTERVAL,
        pollMs: config.RUN_POLL_INTERVAL,
        sweepMs: config.RUN_SWEEP_INTERVAL,
        maxAttempts: config.RUN_MAX_ATTEMPTS,
        retentionMs: config.RUN_EVENTS_RETENTION,
        retentionSweepMs: config.RUN_EVENTS_RETENTION_SWEEP_INTERVAL,
        flushMs: config.RUN_EVENTS_FLUSH_INTERVAL,
        shutdownGraceMs: config.RUN_SHUTDOWN_GRACE,
      },
      tracing,
      apiUrl: config.LANGGRAPH_API_URL,
      webhooks: !project.http.disable_webhooks,
      webhookOptions: { egress: egressPolicyFromConfig(config), secret: config.WEBHOOK_SECRET, loopback: loopback.fetch },
    });
    await lifecycle.use('runs', runs.start(), () => runs.stop());
    const sweeper = startStoreTtlSweeper(store, { intervalMs: storeSettings.sweepIntervalMs, logger });
    lifecycle.onShutdown('store-sweeper', () => sweeper.stop());
    const crons = createCronRepository(db.sql);
    const cronScheduler = new CronScheduler({
      crons,
      logger,
      intervalMs: config.CRON_SCHEDULER_INTERVAL,
      createRun: (target, request) => runs.create(target, runCreateSchema.parse(request)),
    });
    cronScheduler.start();
    // Registered after the runs: stops before them, so no firing creates a run on a stopping server.
    lifecycle.onShutdown('crons', () => cronScheduler.stop());

    const handoff = new CallerHandoff();
    const app = createAgentServerApp({
      logger,
      deploymentKey,
      previousDeploymentKeys: config.DEPLOYMENT_KEYS_PREVIOUS,
      version: AGENT_SERVER_VERSION,
      deploymentId: config.DEPLOYMENT_ID,
      readiness: { database: () => db.ready() },
      metrics: createAgentServerMetrics({ deploymentId: config.DEPLOYMENT_ID, depth: () => runs.depth(), logger }),
      registry,
      assistants,
      runs,
      threads: { threads, state },
      store,
      crons,
      streaming: { sseHeartbeatMs: config.SSE_HEARTBEAT_INTERVAL, waitKeepAliveMs: config.WAIT_KEEPALIVE_INTERVAL },
      tracing: Boolean(tracing),
      auth,
      http: project.http,
      ui,
      handedCallers: customApp ? { callers: handoff, header: CALLER_HEADER } : undefined,
      dev: config.LANGGRAPH_DEV
        ? { truncate: devTruncate(new DevTablesRepository(db.prisma), () => syncSystemAssistants(assistants, registry, project.defaults)), apiKey: config.LANGGRAPH_DEV_API_KEY }
        : undefined,
    });
    let listener: RequestListener = app;
    if (customApp) {
      // The core routes on the loopback interface, behind the project's app on the server's address.
      const core = await lifecycle.use('http-core', startHttpServer(app, '127.0.0.1', 0, slowClientLimits(config)), (h) => h.close());
      listener = createCustomAppFront({
        logger,
        app: customApp,
        coreUrl: () => core.url,
        deploymentKey,
        previousDeploymentKeys: config.DEPLOYMENT_KEYS_PREVIOUS,
        deploymentId: config.DEPLOYMENT_ID,
        isPublicPath,
        auth: auth && { auth, isOpen: isOpenPath, authenticateCustomRoutes: project.http.enable_custom_route_auth !== false },
        cors: project.http.cors,
        handoff,
        dev: config.LANGGRAPH_DEV ? { apiKey: config.LANGGRAPH_DEV_API_KEY } : undefined,
      });
    }
    const prefix = project.http.mount_prefix;
    // Without a project app in front, the core app serves every request: they are born with its prototypes.
    const http = await lifecycle.use('http', startHttpServer(mountAt(prefix, listener), config.HOST, config.PORT, { express: customApp ? undefined : app, ...slowClientLimits(config) }), (h) => h.close());
    loopback.bind(`${http.url}${prefix ?? ''}`);
    prepareSchemas(registry);
    // Runs stop before HTTP closes: their streams end (clients rejoin elsewhere) instead of holding the close.
    lifecycle.onShutdown('runs', () => runs.stop());
    return { name: 'agent-server', url: http.url };
  });
}
