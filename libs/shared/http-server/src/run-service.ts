import { ConfigError } from '@platform/config';
import { createLogger, type Logger } from '@platform/logging';
import { parentPidFrom, watchParent } from './process-tree';

/** A started service: where it listens and how to stop it. */
export interface RunningService {
  name: string;
  /** Base URL of its HTTP server. */
  url: string;
  /** Port of its gRPC server, for services that serve gRPC. */
  grpcPort?: number;
  /** Stops listeners first, then clients and connections (see Lifecycle). */
  stop(): Promise<void>;
}

export interface ServiceEntry<Config> {
  name: string;
  loadConfig: () => Config;
  logLevel: (config: Config) => string;
  start: (config: Config, logger: Logger) => Promise<RunningService>;
  /** `main.cjs migrate`: apply the service's migrations and exit (a Kubernetes Job, a release step). */
  migrate?: (config: Config, logger: Logger) => Promise<string[]>;
}

/**
 * The body of every `main.ts`: parse config once (a bad one exits naming the variable), start, and stop cleanly
 * on SIGTERM/SIGINT. A second signal exits at once. Started by a launcher that set PLATFORM_PARENT_PID (the local
 * deployment driver, `agent-platform dev`), it stops the same way when that process is gone, however it died.
 */
export async function runService<Config>(entry: ServiceEntry<Config>, argv = process.argv.slice(2), env: Record<string, string | undefined> = process.env): Promise<void> {
  let stopOnParentExit: (() => void) | undefined;
  const parentPid = parentPidFrom(env);
  if (parentPid) {
    watchParent(parentPid, () => {
      process.stderr.write(`${entry.name}: its launcher (pid ${parentPid}) is gone; stopping\n`);
      // Still starting: nothing to hand back yet. A stop that hangs ends anyway.
      if (!stopOnParentExit) process.exit(1);
      setTimeout(() => process.exit(1), 15_000).unref();
      stopOnParentExit();
    });
  }
  let config: Config;
  try {
    config = entry.loadConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${entry.name}: ${err.message}\n`);
    process.exit(2);
  }
  const logger = createLogger({ service: entry.name, level: entry.logLevel(config) });
  try {
    if (argv[0] === 'migrate') {
      if (!entry.migrate) throw new Error(`${entry.name} has no database to migrate`);
      const applied = await entry.migrate(config, logger);
      logger.info({ applied }, applied.length ? 'migrations applied' : 'database is up to date');
      process.exit(0);
    }
    const running = await entry.start(config, logger);
    logger.info({ url: running.url, grpc_port: running.grpcPort }, 'started');
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) process.exit(1);
      stopping = true;
      logger.info({ signal }, 'stopping');
      running.stop().then(
        () => process.exit(0),
        (err: unknown) => {
          logger.error({ err }, 'stop failed');
          process.exit(1);
        },
      );
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
    stopOnParentExit = () => stop('SIGTERM');
  } catch (err) {
    logger.fatal({ err }, 'failed to start');
    process.stderr.write(`${entry.name}: failed to start: ${startFailure(entry.name, err)}\n`);
    process.exit(1);
  }
}

/** What a person reads when a service does not start; for a database without its migrations, what to run. */
export function startFailure(service: string, err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  // By name, not instanceof: @platform/prisma (and its drivers) stays out of services without a database.
  if (!(err instanceof Error) || err.name !== 'NotMigratedError') return message;
  return (
    `${message}. Apply the migrations first: \`node dist/apps/${service}/main.cjs migrate\` ` +
    `(from a checkout: \`npx tsx apps/${service}/src/main.ts migrate\`), or start it with MIGRATE_ON_START=true.`
  );
}

/** Applies a database's pending migrations, then closes it: the body of a `main.cjs migrate`. */
export async function migrateAndClose(open: Promise<{ migrate(): Promise<string[]>; close(): Promise<void> }>): Promise<string[]> {
  const db = await open;
  try {
    return await db.migrate();
  } finally {
    await db.close();
  }
}
