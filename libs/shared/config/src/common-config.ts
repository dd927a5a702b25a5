import path from 'node:path';
import { z } from 'zod';
import { duration, flag, logLevel, port, url } from './env-types';

/**
 * Variables every service reads: where it listens, how it logs, the secret that signs identity between the
 * gateway and the services, and the embedded-mode data directory.
 */
export const commonServiceEnv = (defaults: { httpPort: number; grpcPort?: number }) => ({
  /** Address the HTTP (and gRPC) server binds to. */
  HOST: z.string().default('127.0.0.1'),
  /** HTTP port; `0` picks a free one. */
  PORT: port(defaults.httpPort),
  /** gRPC port of the services that serve gRPC (control plane, tracing, export); `0` picks a free one. */
  GRPC_PORT: port(defaults.grpcPort ?? 0),
  /** `fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`. */
  LOG_LEVEL: logLevel,
  /** Human-readable logs instead of JSON lines (development). */
  LOG_PRETTY: flag(false),
  /** The secret the gateway signs identities with and services verify them with (the same on every service; 16+ characters). */
  INTERNAL_SECRET: z.string().min(16, 'must be at least 16 characters'),
  /** Root of the embedded (PGlite) databases when DATABASE_URL is unset: `<DATA_DIR>/<service>`; `memory://` keeps them in memory. */
  DATA_DIR: z.string().default('.data'),
  /** Longest a client may take to send a request's headers (`30s`, `500ms`): 408 and the connection closed beyond. */
  HTTP_HEADERS_TIMEOUT: duration(30_000),
  /**
   * Longest pause between the bytes of a request body: 408 and the connection closed beyond (`0`: none). An upload that
   * keeps coming is never cut, however long it takes; responses (SSE streams) are not limited.
   */
  HTTP_BODY_IDLE_TIMEOUT: duration(30_000),
});

/**
 * `MIGRATE_ON_START`: apply the service's pending migrations at start (embedded mode, tests, one-replica setups);
 * off, a service on a database that lacks some exits saying so (`main.cjs migrate` applies them).
 */
export const migrateOnStart = () => flag(false);

/** `DATABASE_URL`: this service's Postgres database (a postgres:// URL); unset, embedded PGlite under DATA_DIR. */
export const databaseUrl = () => url(['postgres:', 'postgresql:']).optional();

const NATS_PROTOCOLS = ['nats:', 'tls:', 'ws:', 'wss:'];

/**
 * `NATS_URL`: the NATS server (JetStream) of the export job queue, or a comma-separated list of seeds of one cluster
 * (`nats://nats-0:4222,nats://nats-1:4222,nats://nats-2:4222`): the client connects to any and learns the rest.
 * Unset, the in-process bus (one process only).
 */
export const natsUrl = () =>
  z
    .string()
    .refine((v) => {
      const seeds = v.split(',').map((s) => s.trim());
      return seeds.every((seed) => url(NATS_PROTOCOLS).safeParse(seed).success);
    }, `must be a ${NATS_PROTOCOLS.join(' or ')} URL, or a comma-separated list of them`)
    .optional();

/** `NATS_STREAM_REPLICAS`: copies of each JetStream stream (1 on one server; 3 on a 3-node cluster). */
export const natsStreamReplicas = () => z.coerce.number().int().min(1).max(5).default(1);

/**
 * `NATS_PREFIX`: this installation's names on NATS (streams `<prefix>-<queue>`, subjects `<prefix>.<subject>`,
 * durables `<prefix>-<durable>`), so installations sharing one NATS never take each other's jobs. The same on the
 * export service and every export worker of an installation; empty (the default) keeps the unprefixed names.
 */
export const natsPrefix = () =>
  z
    .string()
    .regex(/^[A-Za-z0-9_]*$/, 'must be letters, digits and _ only')
    .max(32)
    .default('');

/**
 * Where a service keeps its embedded (PGlite) database: `<DATA_DIR>/<service>`, or in memory when DATA_DIR is
 * `memory://` (tests).
 */
export function serviceDataDir(dataDir: string, service: string): string {
  return dataDir.startsWith('memory://') ? 'memory://' : path.join(dataDir, service);
}
