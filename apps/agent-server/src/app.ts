import type { Express, Request } from 'express';
import type { AssistantRepository } from '@platform/agent-server-assistants';
import type { DeploymentAuth } from '@platform/agent-server-auth';
import type { CronRepository } from '@platform/agent-server-crons';
import type { PrismaStore } from '@platform/agent-server-data-access/store';
import type { GraphRegistry, HttpConfig, UiAsset } from '@platform/agent-server-graphs';
import type { RunService } from '@platform/agent-server-runs';
import type { ThreadRepository, ThreadStateService } from '@platform/agent-server-threads';
import { MiB, createHttpApp, type BodyLimits, type ReadinessCheck, type ServiceMetrics } from '@platform/http-server';
import type { Logger } from '@platform/logging';
import { mountRoutes } from '@platform/openapi';
import { a2aRoutes } from './http/a2a/a2a.routes';
import { assistantThreadsDeleter } from './http/rest/assistants/assistant-threads';
import { assistantsRoutes } from './http/rest/assistants/assistants.routes';
import { cronsRoutes } from './http/rest/crons/crons.routes';
import { configurableHeaders } from './http/common/configurable-headers';
import { corsMiddleware } from './http/common/cors.middleware';
import { authenticateCaller, deploymentAuthHeaders, type HandedCallers } from './http/common/deployment-auth.middleware';
import { devApiKey } from './http/dev/dev-api-key.middleware';
import { devTruncateRoutes, type Truncate } from './http/dev/dev-truncate.routes';
import { docsRoutes, isDocsPath } from './http/openapi/docs.routes';
import { infoRoutes } from './http/rest/system/info.routes';
import { jsonRpcParseErrors } from './http/common/json-rpc';
import { mcpOtherMethods, mcpRoutes } from './http/mcp/mcp.routes';
import { runsRoutes } from './http/rest/runs/runs.routes';
import { storeRoutes } from './http/rest/store/store.routes';
import { threadProtocolRoutes } from './http/thread-protocol/thread-protocol.routes';
import { threadsRoutes } from './http/rest/threads/threads.routes';
import { uiRoutes } from './http/ui/ui.routes';

export interface AgentServerDeps {
  logger: Logger;
  /** The key the gateway signs this deployment's requests with (DEPLOYMENT_KEY), never the platform's secret. */
  deploymentKey: string;
  /** Its keys under former platform secrets, accepted during a rotation (DEPLOYMENT_KEYS_PREVIOUS). */
  previousDeploymentKeys?: readonly string[];
  version: string;
  deploymentId?: string;
  readiness?: Record<string, ReadinessCheck>;
  /** `/metrics` (createAgentServerMetrics: the run queue's depth); default the HTTP metrics alone. */
  metrics?: ServiceMetrics;
  registry: GraphRegistry;
  assistants: AssistantRepository;
  threads: { threads: ThreadRepository; state: ThreadStateService };
  runs: RunService;
  store: PrismaStore;
  crons: CronRepository;
  streaming: { sseHeartbeatMs: number; waitKeepAliveMs: number };
  /** Runs are traced to a LangSmith-compatible endpoint. */
  tracing: boolean;
  /** The deployment's own auth (langgraph.json `auth.path`), after the gateway's: every route but the open ones. */
  auth?: DeploymentAuth;
  /** langgraph.json `http`: routes turned off (`disable_*`), `cors`, `configurable_headers`. */
  http?: HttpConfig;
  /** Each graph's generative UI bundle (langgraph.json `ui`), served under `/ui`. */
  ui?: Record<string, UiAsset[]>;
  /** Callers the project's HTTP app (`http.app`, in front of these routes) authenticated, under this header. */
  handedCallers?: { callers: HandedCallers; header: string };
  /**
   * The development server (`agent-platform dev`): served directly rather than behind the gateway (no signed
   * identity; `apiKey` when it listens beyond loopback), with `POST /internal/truncate`.
   */
  dev?: { truncate: Truncate; apiKey?: string };
}

// Open without the deployment's auth, as on LangGraph Platform: server info, the API docs, UI assets.
export const isOpenPath = (req: Request) => req.path === '/info' || isDocsPath(req.path) || (req.method === 'GET' && (req.path === '/ui' || req.path.startsWith('/ui/')));

/** Paths open without the gateway's signature: the probes (createHttpApp's) and the API docs. */
export const isPublicPath = (path: string) => path === '/ok' || path === '/ready' || path === '/metrics' || isDocsPath(path);

/** Run inputs, state updates and store values may carry documents or images: one limit for every route (README, errors). */
export const AGENT_SERVER_BODY_LIMITS: BodyLimits = { defaultBytes: 10 * MiB };

/**
 * The routes declared with their schemas, by resource: served (unless `http` turns them off) and described in
 * /openapi.json (even where `http` turns them off).
 */
export function agentServerRoutes(deps: AgentServerDeps) {
  const http = deps.http ?? {};
  return {
    assistants: assistantsRoutes({ assistants: deps.assistants, registry: deps.registry, deleteThreadsOf: assistantThreadsDeleter(deps.threads.threads) }),
    threads: threadsRoutes(deps.threads),
    crons: cronsRoutes({ crons: deps.crons, assistants: deps.assistants, threads: deps.threads.threads }),
    store: storeRoutes({ store: deps.store }),
    runs: runsRoutes({ runs: deps.runs, ...deps.streaming, configurableHeaders: configurableHeaders(http.configurable_headers) }),
    threadProtocol: threadProtocolRoutes({ runs: deps.runs, threads: deps.threads, sseHeartbeatMs: deps.streaming.sseHeartbeatMs }),
    a2a: a2aRoutes({
      assistants: deps.assistants,
      registry: deps.registry,
      runs: deps.runs,
      threads: deps.threads,
      version: deps.version,
      sseHeartbeatMs: deps.streaming.sseHeartbeatMs,
      waitKeepAliveMs: deps.streaming.waitKeepAliveMs,
    }),
    mcp: mcpRoutes({ assistants: deps.assistants, registry: deps.registry, runs: deps.runs, version: deps.version, waitKeepAliveMs: deps.streaming.waitKeepAliveMs }),
    info: infoRoutes({ version: deps.version, deploymentId: deps.deploymentId, tracing: deps.tracing }),
  };
}

export function createAgentServerApp(deps: AgentServerDeps): Express {
  const http = deps.http ?? {};
  const declared = agentServerRoutes(deps);
  const { assistants, threads, crons, store, runs, threadProtocol, a2a, mcp, info } = declared;
  return createHttpApp({
    service: 'agent-server',
    logger: deps.logger,
    readiness: deps.readiness,
    metrics: deps.metrics,
    identity: deps.dev ? undefined : { secret: deps.deploymentKey, previousSecrets: deps.previousDeploymentKeys, publicPaths: isDocsPath, deploymentId: deps.deploymentId },
    bodyLimits: AGENT_SERVER_BODY_LIMITS,
    beforeIdentity: http.cors ? [corsMiddleware(http.cors)] : [],
    routes: (app) => {
      if (deps.dev?.apiKey) app.use(devApiKey(deps.dev.apiKey));
      if (deps.dev) app.use(devTruncateRoutes(deps.dev.truncate));
      if (deps.auth) app.use(authenticateCaller(deps.auth, isOpenPath, deps.handedCallers));
      if (!http.disable_meta) mountRoutes(app, info);
      if (!http.disable_runs) {
        // Crons before runs: `/runs/crons/...` would otherwise reach the runs routes' `/runs/{run_id}` patterns.
        // Then runs, the hot path (express tries routers in order).
        mountRoutes(app, crons);
        mountRoutes(app, runs);
        // The thread protocol (SDK 1.15 `threads.stream`) starts runs: off with them, as the reference has it.
        mountRoutes(app, threadProtocol);
      }
      if (!http.disable_store) mountRoutes(app, store);
      if (!http.disable_threads) mountRoutes(app, threads);
      if (!http.disable_assistants) mountRoutes(app, assistants);
      if (!http.disable_a2a) mountRoutes(app, a2a);
      if (!http.disable_mcp) {
        mountRoutes(app, mcp);
        app.use(mcpOtherMethods());
      }
      if (deps.ui && !http.disable_ui) app.use(uiRoutes(deps.ui));
      app.use(docsRoutes({ version: deps.version, routes: Object.values(declared).flat() }));
      app.use(deploymentAuthHeaders);
      // Last: unreadable requests (body or path) on A2A and MCP, from the body parser or any router above.
      app.use(jsonRpcParseErrors((path) => path.startsWith('/a2a/') || path === '/mcp' || path.startsWith('/mcp/')));
    },
  }).app;
}
