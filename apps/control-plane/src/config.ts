import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { commonServiceEnv, databaseUrl, duration, flag, loadConfig, logLevel, url, type Env } from '@platform/config';

const httpUrl = () => url(['http:', 'https:']);
const commandLine = (fallback: string[]) =>
  z
    .string()
    .transform((v, ctx) => {
      try {
        const parsed: unknown = JSON.parse(v);
        if (Array.isArray(parsed) && parsed.length > 0 && parsed.every((p) => typeof p === 'string')) return parsed as string[];
      } catch {
        // reported below
      }
      ctx.addIssue({ code: 'custom', message: 'must be a JSON array of strings, e.g. ["node","main.js"]' });
      return z.NEVER;
    })
    .optional()
    .transform((v) => v ?? fallback);
const csv = (fallback: string[]) =>
  z
    .string()
    .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean))
    .optional()
    .transform((v) => v ?? fallback);

const schema = z.object({
  ...commonServiceEnv({ httpPort: 8181, grpcPort: 50051 }),
  DATABASE_URL: databaseUrl(),
  MIGRATE_ON_START: flag(false),
  /** Public base URL of the platform (the gateway): deployment URLs (`custom_url`) and the OAuth redirect URI. */
  PUBLIC_URL: httpUrl().optional(),
  /** Where services reach the gateway (tracing keys, LANGSMITH_ENDPOINT of Agent Servers); default PUBLIC_URL. */
  GATEWAY_URL: httpUrl().optional(),
  /** Wildcard domain routed to the gateway: deployments are `https://<id>.<domain>`. */
  DEPLOYMENT_DOMAIN: z.string().regex(/^(\*\.)?[a-z0-9.-]+$/i, 'must be a domain name').optional(),
  /** Key for secrets at rest (base64 of 32 bytes, or a passphrase); default: derived from INTERNAL_SECRET. */
  ENCRYPTION_KEY: z.string().min(16).optional(),
  /** Former keys (comma-separated), still accepted for reading after a rotation. */
  ENCRYPTION_KEYS_PREVIOUS: csv([]),
  DEPLOYMENT_DRIVER: z.enum(['local', 'kubernetes']).default('local'),
  /** The Agent Server command of the local driver. */
  AGENT_SERVER_COMMAND: commandLine(['node_modules/.bin/tsx', 'apps/agent-server/src/main.ts']),
  AGENT_LOG_LEVEL: logLevel.optional(),
  /** The platform's root (its node_modules serve deployments that need no install). */
  PLATFORM_ROOT: z.string().default(process.cwd()),
  /** Checkouts, logs and embedded deployment databases; default `<DATA_DIR>/control-plane-work`. */
  WORK_DIR: z.string().optional(),
  /** A Postgres server where each deployment gets its own database; unset = PGlite under WORK_DIR. */
  DEPLOYMENTS_DATABASE_URL: databaseUrl(),
  /** Name prefix of those databases (`<prefix><deployment id without dashes>`). */
  DEPLOYMENTS_DATABASE_PREFIX: z.string().regex(/^[a-z_][a-z0-9_]{0,30}$/, 'must be lower-case letters, digits and _').default('deployment_'),
  /** Prefixes a repo_url must start with (`*` = any). */
  GIT_ALLOWED_URLS: csv(['https://']),
  BUILD_TIMEOUT: duration(15 * 60_000),
  INSTALL_COMMAND: z.string().default('npm install --no-audit --no-fund --omit=dev'),
  MAX_CONCURRENT_BUILDS: z.coerce.number().int().min(1).max(32).default(2),
  /** How long a new Agent Server has to become healthy (local) or roll out (kubernetes). */
  DEPLOY_TIMEOUT: duration(180_000),
  /** How long a replaced local instance keeps serving; covers the gateway's deployment cache (30 s). */
  DRAIN_PERIOD: duration(35_000),
  RECONCILER_LEASE_TTL: duration(15_000),
  RECONCILER_POLL_INTERVAL: duration(2_000),
  RECONCILER_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(3),
  /** This replica's name in the reconciler lease; default host name + pid. */
  REPLICA_ID: z.string().optional(),
  K8S_NAMESPACE: z.string().default('default'),
  K8S_AGENT_SERVER_IMAGE: z.string().default('agent-platform:latest'),
  K8S_AGENT_SERVER_COMMAND: commandLine(['node', 'dist/apps/agent-server/main.cjs']),
  K8S_GIT_IMAGE: z.string().default('alpine/git:2.47.2'),
  K8S_IMAGE_PULL_POLICY: z.enum(['Always', 'IfNotPresent', 'Never']).optional(),
  K8S_CLUSTER_DOMAIN: z.string().default('cluster.local'),
  /** What autoscales a deployment with max_scale > min_scale: an HPA on CPU, or KEDA on CPU and queued runs. */
  K8S_AUTOSCALER: z.enum(['hpa', 'keda']).default('hpa'),
  /** The Prometheus KEDA's scaler asks for a deployment's queued runs (required with K8S_AUTOSCALER=keda). */
  K8S_KEDA_PROMETHEUS_URL: httpUrl().optional(),
  /** A kubeconfig file; default: in-cluster service account, else ~/.kube/config. */
  KUBECONFIG: z.string().optional(),
  /** The page the browser lands on after an OAuth callback (`?auth_id=&status=`); default: the web console's, `{PUBLIC_URL}/console/oauth/callback` (JSON without PUBLIC_URL). */
  OAUTH_CALLBACK_PAGE_URL: httpUrl().optional(),
  OAUTH_FLOW_TTL: duration(10 * 60_000),
}).superRefine((config, ctx) => {
  if (config.K8S_AUTOSCALER === 'keda' && !config.K8S_KEDA_PROMETHEUS_URL) {
    ctx.addIssue({ code: 'custom', path: ['K8S_KEDA_PROMETHEUS_URL'], message: 'is required when K8S_AUTOSCALER is keda' });
  }
});

export type ControlPlaneConfig = z.infer<typeof schema>;

export function loadControlPlaneConfig(env: Env = process.env): ControlPlaneConfig {
  return loadConfig(schema, env);
}

/** Where checkouts, logs and embedded deployment databases go. */
export function workDir(config: ControlPlaneConfig): string {
  if (config.WORK_DIR) return path.resolve(config.WORK_DIR);
  if (config.DATA_DIR.startsWith('memory://')) return path.join(os.tmpdir(), `control-plane-work-${process.pid}`);
  return path.resolve(config.DATA_DIR, 'control-plane-work');
}
