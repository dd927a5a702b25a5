// `npm start`: the whole platform on this machine. Embedded defaults: PGlite databases under .data/, the
// in-process job bus. With DATABASE_URL_<SERVICE> (or one DATABASE_URL server) and NATS_URL set, the same
// command runs on Postgres and NATS JetStream.
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { closeDataDir, flag, loadConfig, logLevel, natsStreamReplicas, natsUrl, port, url } from '@platform/config';
import { DataDirLockedError, killDescendants, lockDataDir, parentPidFrom, watchParent } from '@platform/http-server';
import { bootstrapBanner } from '../../apps/gateway/src/service';
import { ensureConsoleBuilt } from './console-build';
import { controlPlaneEnv, databaseUrls, envName, natsPrefix } from './launch-env';
import { DATABASE_SERVICES, REPLICATED_SERVICES, SERVICES, startPlatform, type DatabaseService, type ReplicatedService, type RunningPlatform } from './platform';
import { busyPorts, portPlan } from './launch-ports';
import { parseReplicas, replicasArgument } from './replicas-option';

const postgresUrl = () => url(['postgres:', 'postgresql:']).optional();

const schema = z.object({
  HOST: z.string().default('127.0.0.1'),
  GATEWAY_PORT: port(8080),
  DATA_DIR: z.string().default('.data'),
  LOG_LEVEL: logLevel,
  NATS_URL: natsUrl(),
  /** Copies of each JetStream stream: 3 on a 3-node NATS cluster (see docs/scale.md). */
  NATS_STREAM_REPLICAS: natsStreamReplicas(),
  INTERNAL_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  /** One Postgres server for every service: each gets its own database `platform_<service>` there, and a role owning it when this URL may create roles. */
  DATABASE_URL: postgresUrl(),
  /** Names of the platform's databases on that server: `<prefix><service>`, deployments `<prefix>deployment_<id>`. */
  DATABASE_PREFIX: z.string().regex(/^[a-z_][a-z0-9_]{0,30}$/, 'must be lower-case letters, digits and _').optional(),
  /** This installation's names on NATS (see NATS_PREFIX of the export service); default: DATABASE_PREFIX without its trailing `_`. */
  NATS_PREFIX: z.string().regex(/^[A-Za-z0-9_]*$/, 'must be letters, digits and _ only').max(32).optional(),
  /** Skip migrations at start (they are applied by default: embedded mode has no release step). */
  SKIP_MIGRATIONS: flag(false),
  ...Object.fromEntries(DATABASE_SERVICES.map((s) => [envName(s), postgresUrl()])),
});

/** A value made once and kept in `<dataDir>/<name>` (0600), or a fresh one each start with an in-memory DATA_DIR. */
function kept(dataDir: string, name: string, make: () => string): string {
  if (dataDir.startsWith('memory://')) return make();
  const file = path.join(dataDir, name);
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o711 });
  const value = make();
  fs.writeFileSync(file, value, { mode: 0o600 });
  return value;
}

/** The internal signing secret: from the environment, else made once and kept beside the embedded data. */
function internalSecret(dataDir: string, fromEnv?: string): string {
  return fromEnv ?? kept(dataDir, 'internal-secret', () => randomBytes(32).toString('base64url'));
}

/**
 * The project this process's agent server serves, as a deployment of the bootstrap workspace (see the banner), traced
 * into the tracing project of its name: the example agent, or PLATFORM_PROJECT (a langgraph.json; `agent-platform
 * up` sets it) named after its folder.
 */
const PROJECT = process.env.PLATFORM_PROJECT ? path.resolve(process.env.PLATFORM_PROJECT) : undefined;
const EXAMPLE_DEPLOYMENT = PROJECT ? path.basename(path.dirname(PROJECT)).replace(/[^A-Za-z0-9._-]/g, '-') : 'react-agent';

/** A signal this soon after the first is the same request delivered again (npm and tsx forward the terminal's). */
const DUPLICATE_SIGNAL_MS = 2_000;
const say = (line: string) => process.stdout.write(`  ${line}\n`);

/**
 * Stopping: every service, the control plane's deployments (their Agent Servers) included, then whatever still runs
 * below this process is killed and waited for; only then does the launcher exit. A later signal (or the launcher
 * of `agent-platform up` gone) kills what runs below at once, waits for it to be gone, and exits.
 */
class Shutdown {
  private since?: number;
  private platform?: RunningPlatform;
  private releaseLock: () => void = () => undefined;

  get requested(): boolean {
    return this.since !== undefined;
  }

  holdLock(release: () => void): void {
    this.releaseLock = release;
  }

  /** The platform started: stop it now if a signal came while it was starting. */
  started(platform: RunningPlatform): void {
    this.platform = platform;
    if (this.requested) void this.stopPlatform();
  }

  request(reason: string): void {
    if (this.since === undefined) {
      this.since = Date.now();
      process.stdout.write(`\n  ${reason}: stopping…${this.platform ? '' : ' (once the services that are starting have started)'}\n`);
      if (this.platform) void this.stopPlatform();
      return;
    }
    if (Date.now() - this.since < DUPLICATE_SIGNAL_MS) return;
    process.stdout.write(`\n  ${reason} again: killing what is still running…\n`);
    void this.exit(1);
  }

  /** Stopped before any service started. */
  async nothingStarted(): Promise<never> {
    return this.exit(0);
  }

  /** A start that failed: what did start is stopped by startPlatform; what runs below is killed. */
  async failed(err: unknown): Promise<never> {
    console.error(err instanceof Error && err.name === 'ConfigError' ? err.message : err);
    return this.exit(1);
  }

  private async stopPlatform(): Promise<void> {
    let code = 0;
    try {
      await this.platform?.stop();
    } catch (err) {
      console.error(err);
      code = 1;
    }
    await this.exit(code);
  }

  private async exit(code: number): Promise<never> {
    const left = await killDescendants(process.pid, 'SIGKILL', 10_000);
    if (left.length) console.error(`  could not stop processes ${left.join(', ')}`);
    this.releaseLock();
    process.exit(code);
  }
}

async function main(shutdown: Shutdown) {
  const config = loadConfig(schema, process.env) as z.infer<typeof schema> & Record<string, string | undefined>;
  const replicasArg = replicasArgument(process.argv.slice(2), process.env);
  const replicas = parseReplicas(replicasArg.value, replicasArg.flag);
  const plan = portPlan(process.env);
  const advertised = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
  // First: one instance per data folder (a second would open the same embedded databases), and free ports.
  const lock = lockDataDir(config.DATA_DIR, { url: `http://${advertised}:${plan.ports.gateway || '(any port)'}`, command: PROJECT ? 'agent-platform up' : 'npm start' });
  shutdown.holdLock(lock.release);
  const busy = await busyPorts(config.HOST, plan);
  if (busy.length) throw new LaunchError(`cannot start: ${busy.join('; ')}`);

  const consoleDir = await ensureConsoleBuilt(say);
  const urls = await databaseUrls(config);
  // Nobody but this user reads the embedded databases and the secret; deployments reach only their own files in
  // the control plane's work directory (see the local driver).
  closeDataDir(config.DATA_DIR, { create: DATABASE_SERVICES, open: ['control-plane-work'] });
  // A Ctrl-C during the console build: nothing started yet.
  if (shutdown.requested) return shutdown.nothingStarted();
  const migrating = !config.SKIP_MIGRATIONS;
  const embedded = DATABASE_SERVICES.some((s) => !urls[s]);
  say(`Starting the services${migrating ? ' and applying their migrations' : ''}${migrating && embedded ? ` (PGlite under ${config.DATA_DIR}: a first start takes a minute or two)` : ''}…`);
  const platform = await startPlatform({
    host: config.HOST,
    ports: plan.ports,
    grpcPorts: plan.grpcPorts,
    dataDir: config.DATA_DIR,
    databaseUrls: urls,
    natsUrl: config.NATS_URL,
    natsStreamReplicas: config.NATS_STREAM_REPLICAS,
    internalSecret: internalSecret(config.DATA_DIR, config.INTERNAL_SECRET),
    // The example agent's deployment keeps its id (and URL) across starts: its server verifies that id's key.
    agentDeploymentId: kept(config.DATA_DIR, 'example-deployment-id', () => randomUUID()),
    agentDeploymentName: EXAMPLE_DEPLOYMENT,
    migrate: !config.SKIP_MIGRATIONS,
    logLevel: config.LOG_LEVEL,
    controlPlaneEnv: controlPlaneEnv(process.env),
    replicas,
    langgraphConfigPath: PROJECT,
    exportEnv: { NATS_PREFIX: natsPrefix(config) },
    exportWorkerEnv: { NATS_PREFIX: natsPrefix(config) },
    gatewayEnv: { DEPLOYMENT_DOMAIN: process.env.DEPLOYMENT_DOMAIN, CONSOLE_DIR: consoleDir, SESSION_TTL: process.env.SESSION_TTL },
    onStarted: (service) => say(`${service.name} started (${service.url})`),
  });
  shutdown.started(platform);
  if (shutdown.requested) return;

  // Unset when someone deleted the deployment: it stays deleted.
  const exampleId = platform.agentDeployment?.id;
  const storage = (s: DatabaseService) => (urls[s] ? 'postgres' : `pglite ${path.join(config.DATA_DIR, s)}`);
  const lines = SERVICES.map((s) => {
    const service = platform.services[s];
    const grpc = service.grpcPort ? ` grpc :${service.grpcPort}` : '';
    const db = (DATABASE_SERVICES as readonly string[]).includes(s) ? `  [${storage(s as DatabaseService)}]` : '';
    const extra = (REPLICATED_SERVICES as readonly string[]).includes(s) ? platform.replicas[s as ReplicatedService].slice(1).map((r) => ` ${r.url}`).join('') : '';
    return `    ${s.padEnd(14)} ${service.url}${extra}${grpc}${db}`;
  });
  process.stdout.write(
    [
      '',
      `  Agent platform is up. Gateway: ${platform.gatewayUrl} (web console: sign in there with an API key)`,
      `  Job bus: ${config.NATS_URL ? `NATS JetStream ${config.NATS_URL} (streams with ${config.NATS_STREAM_REPLICAS} replica${config.NATS_STREAM_REPLICAS > 1 ? 's' : ''})` : 'in-process'}`,
      '  Services (reach them through the gateway; direct calls without its signature are refused):',
      ...lines,
      exampleId
        ? PROJECT
          ? `  Your project (${PROJECT}), deployment '${EXAMPLE_DEPLOYMENT}': ${platform.gatewayUrl}/deployments/${exampleId}`
          : `  Example agent (examples/react-agent, graph "agent"): ${platform.gatewayUrl}/deployments/${exampleId}`
        : '',
      exampleId ? `  Its runs are traced to the tracing project '${EXAMPLE_DEPLOYMENT}' of its workspace (Traces in the console).` : '',
      platform.gateway.bootstrap
        ? bootstrapBanner(platform.gateway.bootstrap, platform.gatewayUrl)
        : '\n  The admin API key was printed on the first start. Create more with POST /api/v1/api-keys.\n',
      '  Ctrl-C stops everything.',
      '',
    ].join('\n'),
  );
}

/** A launch refused before anything started (a held data folder, a busy port): its message alone, no stack. */
class LaunchError extends Error {
  override readonly name = 'LaunchError';
}

const shutdown = new Shutdown();
// From the first moment: a Ctrl-C while the services start must not leave what already started running.
process.on('SIGINT', () => shutdown.request('SIGINT'));
process.on('SIGTERM', () => shutdown.request('SIGTERM'));
const parentPid = parentPidFrom(process.env);
if (parentPid) watchParent(parentPid, () => shutdown.request(`agent-platform (pid ${parentPid}) is gone`));
main(shutdown).catch((err: unknown) => {
  if (err instanceof LaunchError || err instanceof DataDirLockedError) {
    console.error(`npm start: ${err.message}`);
    process.exit(1);
  }
  return shutdown.failed(err);
});
