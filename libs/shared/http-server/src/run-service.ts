import { ConfigError } from '@platform/config';
import { createLogger, type Logger } from '@platform/logging';

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
  /** `main.js migrate`: apply the service's migrations and exit (a Kubernetes Job, a release step). */
  migrate?: (config: Config, logger: Logger) => Promise<string[]>;
}

/**
 * The body of every `main.ts`: parse config once (a bad one exits naming the variable), start, and stop cleanly
 * on SIGTERM/SIGINT. A second signal exits at once.
 */
export async function runService<Config>(entry: ServiceEntry<Config>, argv = process.argv.slice(2)): Promise<void> {
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
  } catch (err) {
    logger.fatal({ err }, 'failed to start');
    process.exit(1);
  }
}

/** Applies a database's pending migrations, then closes it: the body of a `main.js migrate`. */
export async function migrateAndClose(open: Promise<{ migrate(): Promise<string[]>; close(): Promise<void> }>): Promise<string[]> {
  const db = await open;
  try {
    return await db.migrate();
  } finally {
    await db.close();
  }
}
