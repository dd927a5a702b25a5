// Single services of the platform for tests that need one of them and nothing else (the whole platform for
// end-to-end tests is test-platform.ts): each started as the platform starts it, from its own variables.
import { silentLogger } from '@platform/logging';
import type { RunningService } from '@platform/http-server';
import { loadTracingConfig } from '../../apps/tracing/src/config';
import { startTracing } from '../../apps/tracing/src/service';

export interface TestServiceOptions {
  /** Postgres of the service; absent: PGlite under `dataDir` (`<dataDir>/tracing`, or in memory for `memory://`). */
  databaseUrl?: string;
  dataDir: string;
  /** The secret its callers sign with (gRPC `authorization: Bearer`). */
  internalSecret: string;
}

/** The tracing service (HTTP and gRPC on free loopback ports), its database migrated. */
export function startTestTracing(options: TestServiceOptions): Promise<RunningService> {
  const config = loadTracingConfig({
    HOST: '127.0.0.1',
    PORT: '0',
    GRPC_PORT: '0',
    INTERNAL_SECRET: options.internalSecret,
    DATA_DIR: options.dataDir,
    MIGRATE_ON_START: 'true',
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
  });
  return startTracing(config, silentLogger);
}
