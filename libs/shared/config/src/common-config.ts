import path from 'node:path';
import { z } from 'zod';
import { flag, logLevel, port, url } from './env-types';

/**
 * Variables every service reads: where it listens, how it logs, the secret that signs identity between the
 * gateway and the services, and the embedded-mode data directory.
 */
export const commonServiceEnv = (defaults: { httpPort: number; grpcPort?: number }) => ({
  HOST: z.string().default('127.0.0.1'),
  PORT: port(defaults.httpPort),
  GRPC_PORT: port(defaults.grpcPort ?? 0),
  LOG_LEVEL: logLevel,
  LOG_PRETTY: flag(false),
  INTERNAL_SECRET: z.string().min(16, 'must be at least 16 characters'),
  DATA_DIR: z.string().default('.data'),
});

/** `DATABASE_URL` for one service: a Postgres URL, or unset for embedded PGlite. */
export const databaseUrl = () => url(['postgres:', 'postgresql:']).optional();

/** `NATS_URL`: a NATS server, or unset for the in-process bus. */
export const natsUrl = () => url(['nats:', 'tls:', 'ws:', 'wss:']).optional();

/** `NATS_STREAM_REPLICAS`: copies of each JetStream stream (1 on one server; 3 on a 3-node cluster). */
export const natsStreamReplicas = () => z.coerce.number().int().min(1).max(5).default(1);

/**
 * Where a service keeps its embedded (PGlite) database: `<DATA_DIR>/<service>`, or in memory when DATA_DIR is
 * `memory://` (tests).
 */
export function serviceDataDir(dataDir: string, service: string): string {
  return dataDir.startsWith('memory://') ? 'memory://' : path.join(dataDir, service);
}
