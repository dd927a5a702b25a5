import { z } from 'zod';
import { egressEnv } from '@platform/egress';
import { commonServiceEnv, migrateOnStart, databaseUrl, duration, flag, loadConfig, url, type Env } from '@platform/config';

const positiveInt = (fallback: number) => z.coerce.number().int().min(1).default(fallback);

// Everything a service reads but the platform's secret: an Agent Server runs a tenant's code, so it verifies the
// gateway with its own deployment's key (DEPLOYMENT_KEY) instead.
const { INTERNAL_SECRET: _platformSecret, ...serviceEnv } = commonServiceEnv({ httpPort: 8185 });

const schema = z
  .object({
    ...serviceEnv,
    /**
     * The key the gateway signs this deployment's requests with (the control plane derives it from the platform
     * secret and DEPLOYMENT_ID; 32+ characters). Required, except with LANGGRAPH_DEV (then a random one signs the
     * in-process SDK's calls).
     */
    DEPLOYMENT_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
    /**
     * The deployment's keys under former platform secrets (comma-separated), still accepted during a rotation of
     * the internal secret (the control plane sets them from INTERNAL_SECRETS_PREVIOUS).
     */
    DEPLOYMENT_KEYS_PREVIOUS: z
      .string()
      .optional()
      .transform((v) => (v ?? '').split(',').map((k) => k.trim()).filter(Boolean)),
    /** Never set on an Agent Server: the platform's secret would let its graphs sign for any workspace or service. */
    INTERNAL_SECRET: z.undefined({ message: 'must not be set on an Agent Server (it signs for every service); give it DEPLOYMENT_KEY, its own deployment\'s key' }).optional(),
    DATABASE_URL: databaseUrl(),
    MIGRATE_ON_START: migrateOnStart(),
    /** Postgres connections of this replica (runs, checkpoints and requests share them). */
    DATABASE_POOL_SIZE: positiveInt(10),
    /** The deployment this instance serves (set by the control plane's driver). */
    DEPLOYMENT_ID: z.string().optional(),
    /** The deployment's langgraph.json (graphs, env, ...). */
    LANGGRAPH_CONFIG_PATH: z.string().default('langgraph.json'),
    /** JSON `{graph_id: {...config, context}}`: defaults of each graph's system assistant. */
    LANGGRAPH_CONFIG: z.string().optional(),
    /**
     * Where schemas read from graphs' TypeScript sources are kept (reused while the sources are unchanged).
     * Default: `<DATA_DIR>/agent-server/graph-schemas`, or the system temp directory with an in-memory DATA_DIR.
     */
    GRAPH_SCHEMA_CACHE_DIR: z.string().optional(),
    /**
     * How long reading the graphs' schemas from their TypeScript sources may take (the reference's variable; its
     * 30 s default is short for a busy replica, and a timed-out extraction is tried again by the next request).
     */
    LANGGRAPH_SCHEMA_RESOLVE_TIMEOUT_MS: positiveInt(120_000),
    /**
     * Read the graphs' TypeScript schemas in the background as soon as the server listens (and after each dev reload),
     * so that no request waits on the compiler. Only graphs without runtime schemas need it.
     */
    LANGGRAPH_SCHEMAS_AT_START: flag(true),
    /** This deployment's public URL; runs record it in their checkpoints' metadata (`langgraph_api_url`). */
    LANGGRAPH_API_URL: url(['http:', 'https:']).optional(),
    /** Runs this replica executes at once. */
    N_JOBS_PER_WORKER: positiveInt(10),
    /** A running run's lease: a replica that stops heartbeating loses its runs after this long. */
    RUN_LEASE: duration(30_000),
    /** How often a replica renews the leases of the runs it executes. */
    RUN_HEARTBEAT_INTERVAL: duration(10_000),
    /** How often any replica looks for runs whose lease lapsed. */
    RUN_SWEEP_INTERVAL: duration(5_000),
    /** Claim without a NOTIFY at least this often (delayed runs, missed signals). */
    RUN_POLL_INTERVAL: duration(2_000),
    /** How often due crons are looked for. */
    CRON_SCHEDULER_INTERVAL: duration(10_000),
    /** Times a run may be started before a lost replica makes it fail. */
    RUN_MAX_ATTEMPTS: positiveInt(3),
    /** How long a run's events stay after it ended (resumable streams, late joins). */
    RUN_EVENTS_RETENTION: duration(3_600_000),
    /** How often ended runs' events past RUN_EVENTS_RETENTION are deleted. */
    RUN_EVENTS_RETENTION_SWEEP_INTERVAL: duration(60_000),
    /** How long a run's events are batched before they are written. */
    RUN_EVENTS_FLUSH_INTERVAL: duration(20),
    /** On SIGTERM, how long runs get to reach a superstep boundary before they are handed back anyway. */
    RUN_SHUTDOWN_GRACE: duration(10_000),
    /** A `: heartbeat` on an idle SSE stream after this long. */
    SSE_HEARTBEAT_INTERVAL: duration(5_000),
    /** A newline on a wait/join without an answer yet after this long (keeps proxies from closing it). */
    WAIT_KEEPALIVE_INTERVAL: duration(30_000),
    /** Send traces of runs to LANGSMITH_ENDPOINT. */
    LANGSMITH_TRACING: flag(false),
    /** Where traces go: a LangSmith-compatible API (the platform's tracing service: `<gateway>/api/v1`). */
    LANGSMITH_ENDPOINT: url(['http:', 'https:']).optional(),
    /** API key sent with traces (the control plane mints one per deployment). */
    LANGSMITH_API_KEY: z.string().optional(),
    /** Tracing project the runs go to (the control plane uses the deployment name). */
    LANGSMITH_PROJECT: z.string().default('default'),
    /** Sent as X-Tenant-Id with traces (for organisation-wide API keys). */
    LANGSMITH_WORKSPACE_ID: z.string().optional(),
    /**
     * Development server (`agent-platform dev`): served directly, without the gateway's signature;
     * `POST /internal/truncate` exists. Never set on a deployment.
     */
    LANGGRAPH_DEV: flag(false),
    /** With LANGGRAPH_DEV: re-import the graphs when a file of the project changes (new runs use the new code). */
    LANGGRAPH_DEV_RELOAD: flag(true),
    /** With LANGGRAPH_DEV: the key every request must send as `X-Api-Key` (`dev --allow-remote`). */
    LANGGRAPH_DEV_API_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
    /**
     * Signs every run webhook (`X-Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`) so the
     * receiver can verify it; set it as a deployment secret. Unset: webhooks go unsigned.
     */
    WEBHOOK_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
    ...egressEnv(),
  })
  .superRefine((config, ctx) => {
    if (!config.DEPLOYMENT_KEY && !config.LANGGRAPH_DEV) {
      ctx.addIssue({ code: 'custom', path: ['DEPLOYMENT_KEY'], message: "is required: the deployment's key the gateway signs its requests with (the control plane sets it)" });
    }
    if (config.LANGSMITH_TRACING && !config.LANGSMITH_ENDPOINT) {
      ctx.addIssue({ code: 'custom', path: ['LANGSMITH_ENDPOINT'], message: 'is required when LANGSMITH_TRACING is true' });
    }
  });

/** The service's variables: `npm run docs:env` lists them in its README. */
export const agentServerConfigSchema = schema;

export type AgentServerConfig = z.infer<typeof schema>;

export function loadAgentServerConfig(env: Env = process.env): AgentServerConfig {
  return loadConfig(schema, env);
}
