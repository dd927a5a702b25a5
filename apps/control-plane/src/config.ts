import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { egressEnv } from '@platform/egress';
import { commonServiceEnv, migrateOnStart, databaseUrl, duration, flag, loadConfig, logLevel, url, type Env } from '@platform/config';

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
  MIGRATE_ON_START: migrateOnStart(),
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
  /**
   * Former internal secrets (comma-separated) during a rotation: Agent Servers also get their deployment keys under
   * these (DEPLOYMENT_KEYS_PREVIOUS), so they take requests of a gateway not yet on the new secret. Drop it once
   * every gateway runs on the new one.
   */
  INTERNAL_SECRETS_PREVIOUS: csv([]),
  /** `local` (Agent Servers as child processes of this one) or `kubernetes` (a Deployment and Service each). */
  DEPLOYMENT_DRIVER: z.enum(['local', 'kubernetes']).default('local'),
  /** The Agent Server command of the local driver. */
  AGENT_SERVER_COMMAND: commandLine(['node_modules/.bin/tsx', 'apps/agent-server/src/main.ts']),
  /** Log level of the Agent Servers it starts; default this service's LOG_LEVEL. */
  AGENT_LOG_LEVEL: logLevel.unwrap().optional(),
  /** The platform's root (its node_modules serve deployments that need no install). */
  PLATFORM_ROOT: z.string().default(process.cwd()),
  /** Checkouts, logs and embedded deployment databases; default `<DATA_DIR>/control-plane-work`. */
  WORK_DIR: z.string().optional(),
  /** A Postgres server where each deployment gets its own database and role (a superuser, or CREATEDB CREATEROLE); unset = PGlite under WORK_DIR. */
  DEPLOYMENTS_DATABASE_URL: databaseUrl(),
  /** Name prefix of those databases (`<prefix><deployment id without dashes>`). */
  DEPLOYMENTS_DATABASE_PREFIX: z.string().regex(/^[a-z_][a-z0-9_]{0,30}$/, 'must be lower-case letters, digits and _').default('deployment_'),
  /**
   * Where a `repo_url` may point (comma-separated): prefixes of its canonical form, matched on whole segments (a
   * `file:///srv/repos` entry allows `/srv/repos/x`, not `/srv/repos-evil`; `..`, `%2e%2e`, `%2f` and symlinks are
   * resolved first). `*` allows any. A workspace's own uploads are always allowed to it and never to another; the
   * platform's checkout (`PLATFORM_ROOT`), `DATA_DIR` and the work directory never are.
   */
  GIT_ALLOWED_URLS: csv(['https://']),
  /** Longest a whole build (checkout, install, build command) may take before BUILD_FAILED. */
  BUILD_TIMEOUT: duration(15 * 60_000),
  /** Installs a deployment's dependencies when it gives no `install_command` and the platform lacks one of them. */
  INSTALL_COMMAND: z.string().default('npm install --no-audit --no-fund --omit=dev'),
  /** Builds this replica runs at once. */
  MAX_CONCURRENT_BUILDS: z.coerce.number().int().min(1).max(32).default(2),
  /** How long a new Agent Server has to become healthy (local) or roll out (kubernetes). */
  DEPLOY_TIMEOUT: duration(180_000),
  /** How long a replaced local instance keeps serving; covers the gateway's deployment cache (30 s). */
  DRAIN_PERIOD: duration(35_000),
  /**
   * Local driver: each Agent Server stops when the control plane's process is gone, even killed with SIGKILL (the
   * launcher sets it: its control plane runs in the launcher's process, so nothing outlives `npm start`). Off, an
   * Agent Server outlives a control plane that crashed and the next one adopts it.
   */
  AGENT_SERVERS_EXIT_WITH_CONTROL_PLANE: flag(false),
  /** How long the reconciler lease holds without renewal: a dead leader's successor takes over after it. */
  RECONCILER_LEASE_TTL: duration(15_000),
  /** How often the leader looks for deployments and revisions to move on. */
  RECONCILER_POLL_INTERVAL: duration(2_000),
  /** Times a build or deploy step interrupted by a control-plane restart is started again before it fails. */
  RECONCILER_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(3),
  /** This replica's name in the reconciler lease; default host name + pid. */
  REPLICA_ID: z.string().optional(),
  /** Namespace of the Agent Servers (kubernetes driver). */
  K8S_NAMESPACE: z.string().default('default'),
  /** Image the Agent Servers run (kubernetes driver): the platform image. */
  K8S_AGENT_SERVER_IMAGE: z.string().default('agent-platform:latest'),
  /** Command of the Agent Server containers, as a JSON array (kubernetes driver). */
  K8S_AGENT_SERVER_COMMAND: commandLine(['node', 'dist/apps/agent-server/main.cjs']),
  /** Image of the init container that fetches a github source's built commit (kubernetes driver). */
  K8S_GIT_IMAGE: z.string().default('alpine/git:2.47.2'),
  /** The Agent Server containers' `imagePullPolicy`; unset: Kubernetes' default. */
  K8S_IMAGE_PULL_POLICY: z.enum(['Always', 'IfNotPresent', 'Never']).optional(),
  /** The cluster's DNS domain, in the upstream URLs of the Agent Server Services. */
  K8S_CLUSTER_DOMAIN: z.string().default('cluster.local'),
  /** What autoscales a deployment with max_scale > min_scale: an HPA on CPU, or KEDA on CPU and queued runs. */
  K8S_AUTOSCALER: z.enum(['hpa', 'keda']).default('hpa'),
  /** The Prometheus KEDA's scaler asks for a deployment's queued runs (required with K8S_AUTOSCALER=keda). */
  K8S_KEDA_PROMETHEUS_URL: httpUrl().optional(),
  /** A kubeconfig file; default: in-cluster service account, else ~/.kube/config. */
  KUBECONFIG: z.string().optional(),
  /** The page the browser lands on after an OAuth callback (`?auth_id=&status=`); default: the web console's, `{PUBLIC_URL}/console/oauth/callback` (JSON without PUBLIC_URL). */
  OAUTH_CALLBACK_PAGE_URL: httpUrl().optional(),
  /** How long an OAuth flow (its authorize URL and state) stays valid. */
  OAUTH_FLOW_TTL: duration(10 * 60_000),
  /** Where the control plane itself may connect beyond public addresses: the hosts of http(s) `repo_url`s (checked at the API and pinned at clone time). */
  ...egressEnv(),
  /** Non-public address blocks deployed Agent Servers' run webhooks may reach (their EGRESS_ALLOWED_CIDRS; a tenant cannot set it): comma-separated CIDRs. Default none. */
  DEPLOYMENT_EGRESS_ALLOWED_CIDRS: egressEnv().EGRESS_ALLOWED_CIDRS,
  /** Host names deployed Agent Servers' run webhooks may reach whatever they resolve to (their EGRESS_ALLOWED_HOSTS). Default none. */
  DEPLOYMENT_EGRESS_ALLOWED_HOSTS: egressEnv().EGRESS_ALLOWED_HOSTS,
}).superRefine((config, ctx) => {
  if (config.K8S_AUTOSCALER === 'keda' && !config.K8S_KEDA_PROMETHEUS_URL) {
    ctx.addIssue({ code: 'custom', path: ['K8S_KEDA_PROMETHEUS_URL'], message: 'is required when K8S_AUTOSCALER is keda' });
  }
});

/** The service's variables: `npm run docs:env` lists them in its README. */
export const controlPlaneConfigSchema = schema;

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
