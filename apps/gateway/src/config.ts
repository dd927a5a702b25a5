import { z } from 'zod';
import { commonServiceEnv, migrateOnStart, databaseUrl, duration, loadConfig, url, type Env } from '@platform/config';
import { workspaceLimitsEnv } from '@platform/rate-limit';

const schema = z.object({
  ...commonServiceEnv({ httpPort: 8080 }),
  DATABASE_URL: databaseUrl(),
  MIGRATE_ON_START: migrateOnStart(),
  /** HTTP base URL of the control plane (`/v2/*` is proxied there). */
  CONTROL_PLANE_URL: url(['http:', 'https:']),
  /** HTTP base URL of the tracing service (`/api/v1/runs*`, `/api/v1/sessions*`, `/api/v1/info`). */
  TRACING_URL: url(['http:', 'https:']),
  /** HTTP base URL of the export service (`/api/v1/bulk-exports*`). */
  EXPORT_URL: url(['http:', 'https:']),
  /** gRPC address (host:port) of the control plane, for deployment upstream resolution. */
  CONTROL_PLANE_GRPC: z.string().regex(/^[^:\s]+:\d+$/, 'must be host:port'),
  /** How long a deployment's resolved upstream is reused before asking the control plane again. */
  DEPLOYMENT_CACHE_TTL: duration(30_000),
  /**
   * How long an API key (and the workspaces it names) is reused from memory; a revocation reaches every replica at
   * once through Postgres NOTIFY, this bounds staleness should one be missed.
   */
  IDENTITY_CACHE_TTL: duration(10_000),
  /** Deadline of each gRPC call to the control plane (deployment resolution). */
  GRPC_DEADLINE: duration(3_000),
  /** 0 = no limit: run streams (SSE) may stay open for as long as a run lasts. */
  PROXY_TIMEOUT: duration(0),
  /** How long a run wait or join whose Agent Server replica failed looks for another replica to continue on. */
  UPSTREAM_RETRY_WINDOW: duration(30_000),
  /** Wildcard DNS domain of deployments (`*.<domain>` → this gateway): `<deployment id>.<domain>` reaches one. */
  DEPLOYMENT_DOMAIN: z.string().regex(/^(\*\.)?[a-z0-9.-]+$/i, 'must be a domain name').optional(),
  /** How long a browser session (console sign-in) lasts; it ends earlier on sign-out or when its key is revoked. */
  SESSION_TTL: duration(8 * 3600_000),
  /** The built web console (`npx nx build console`), served at `/`. */
  CONSOLE_DIR: z.string().default('dist/apps/console'),
  /** Every workspace's rate limits and quota but those set through `PATCH /api/v1/workspaces/{id}/limits`. */
  ...workspaceLimitsEnv(),
});

/** The service's variables: `npm run docs:env` lists them in its README. */
export const gatewayConfigSchema = schema;

export type GatewayConfig = z.infer<typeof schema>;

export function loadGatewayConfig(env: Env = process.env): GatewayConfig {
  return loadConfig(schema, env);
}
