// What `npm start` hands the services from its environment: each service's database, the control plane's settings.
import { closeServerDatabases, ensurePostgresDatabase } from './postgres-databases';
import { DATABASE_SERVICES, type DatabaseService } from './platform';

export const envName = (service: string) => `DATABASE_URL_${service.toUpperCase().replaceAll('-', '_')}`;

type Env = Record<string, string | undefined>;

/** `DATABASE_PREFIX`: names of the platform's databases on a shared server (default `platform_`). */
export const databasePrefix = (env: Env) => env.DATABASE_PREFIX ?? 'platform_';

/** The database a service gets on the one DATABASE_URL server: `<DATABASE_PREFIX><service>`. */
export const serviceDatabaseName = (env: Env, service: DatabaseService) => `${databasePrefix(env)}${service.replaceAll('-', '_')}`;

/**
 * Each service's database URL: its own DATABASE_URL_<SERVICE>, else, on the one DATABASE_URL server, a database
 * `<DATABASE_PREFIX><service>` owned by a role of the same name that the service connects as (see
 * postgres-databases.ts). DEPLOYMENTS_DATABASE_URL stays DATABASE_URL: the control plane makes deployments' roles.
 */
export async function databaseUrls(env: Env): Promise<Partial<Record<DatabaseService, string>>> {
  const urls: Partial<Record<DatabaseService, string>> = {};
  for (const service of DATABASE_SERVICES) {
    const own = env[envName(service)];
    if (own) urls[service] = own;
    else if (env.DATABASE_URL) urls[service] = await ensurePostgresDatabase(env.DATABASE_URL, serviceDatabaseName(env, service));
  }
  // The services' roles (and the deployments') must not reach the server's own database or template1 either.
  if (env.DATABASE_URL) await closeServerDatabases(env.DATABASE_URL);
  return urls;
}

/** Control-plane settings taken from the environment as they are (see apps/control-plane/src/config.ts). */
const CONTROL_PLANE_SETTINGS = [
  'PUBLIC_URL',
  'DEPLOYMENT_DOMAIN',
  'DEPLOYMENT_DRIVER',
  'AGENT_SERVER_COMMAND',
  'AGENT_LOG_LEVEL',
  'WORK_DIR',
  'DEPLOYMENTS_DATABASE_URL',
  'DEPLOYMENTS_DATABASE_PREFIX',
  'GIT_ALLOWED_URLS',
  'BUILD_TIMEOUT',
  'INSTALL_COMMAND',
  'DEPLOY_TIMEOUT',
  'DRAIN_PERIOD',
  'ENCRYPTION_KEY',
  'OAUTH_CALLBACK_PAGE_URL',
  'KUBECONFIG',
  'K8S_NAMESPACE',
  'K8S_AGENT_SERVER_IMAGE',
];

/** The control plane's variables: those set (unset ones are left out, never passed as undefined), and derived ones. */
export function controlPlaneEnv(env: Env): Record<string, string> {
  const passed = Object.fromEntries(CONTROL_PLANE_SETTINGS.filter((name) => env[name] !== undefined).map((name) => [name, env[name] as string]));
  // On Postgres, each deployment's own database is made on the platform's server: the one DATABASE_URL, else the
  // control plane's own (DATABASE_URL_CONTROL_PLANE) — never PGlite behind the user's back.
  const deploymentsServer = env.DEPLOYMENTS_DATABASE_URL ?? env.DATABASE_URL ?? env[envName('control-plane')];
  if (deploymentsServer) passed.DEPLOYMENTS_DATABASE_URL = deploymentsServer;
  if (!env.DEPLOYMENTS_DATABASE_PREFIX && env.DATABASE_PREFIX) passed.DEPLOYMENTS_DATABASE_PREFIX = `${env.DATABASE_PREFIX}deployment_`;
  return passed;
}


/** NATS_PREFIX, else the installation's DATABASE_PREFIX without its trailing `_` (none: the unprefixed names). */
export const natsPrefix = (env: Env) => env.NATS_PREFIX ?? (env.DATABASE_PREFIX ?? '').replace(/_+$/, '');
