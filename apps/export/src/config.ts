import { z } from 'zod';
import { commonServiceEnv, migrateOnStart, databaseUrl, duration, flag, loadConfig, natsStreamReplicas, natsPrefix, natsUrl, type Env } from '@platform/config';
import { egressEnv } from '@platform/egress';
import { parseEncryptionKey } from '@platform/export-s3';

const positiveInt = (fallback: number) => z.coerce.number().int().min(1).default(fallback);

const encryptionKey = z.string().transform((v, ctx) => {
  try {
    return parseEncryptionKey(v);
  } catch (err) {
    ctx.addIssue({ code: 'custom', message: (err as Error).message });
    return z.NEVER;
  }
});

const schema = z.object({
  ...commonServiceEnv({ httpPort: 8183, grpcPort: 50053 }),
  DATABASE_URL: databaseUrl(),
  MIGRATE_ON_START: migrateOnStart(),
  NATS_URL: natsUrl(),
  NATS_STREAM_REPLICAS: natsStreamReplicas(),
  NATS_PREFIX: natsPrefix(),
  /** AES-256-GCM key for destination credentials at rest: 32 bytes as 64 hex characters or base64. */
  EXPORT_ENCRYPTION_KEY: encryptionKey,
  /** Earlier keys (comma-separated), still accepted for decryption after a key rotation. */
  EXPORT_ENCRYPTION_PREVIOUS_KEYS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      try {
        return (v ?? '').split(',').map((s) => s.trim()).filter(Boolean).map(parseEncryptionKey);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
        return z.NEVER;
      }
    }),
  /** gRPC address (host:port) of the tracing service: export filters and projects are checked there at creation. */
  TRACING_GRPC: z.string().regex(/^[^:\s]+:\d+$/, 'must be host:port').optional(),
  /**
   * Workspaces (comma-separated ids, `*` for all) whose destinations may omit `credentials` and use the platform's own
   * AWS credentials (the SDK's default chain: environment, shared files, instance/container roles). Default none.
   */
  EXPORT_AMBIENT_CREDENTIALS_WORKSPACES: z
    .string()
    .optional()
    .transform((v) => (v ?? '').split(',').map((s) => s.trim()).filter(Boolean)),
  ...egressEnv(),
  /** Longest a destination's test write (at creation and credential rotation) may take. */
  EXPORT_DESTINATION_CHECK_TIMEOUT: duration(15_000),
  /** Exports of one workspace running at once (across all replicas). */
  EXPORT_MAX_RUNNING_EXPORTS_PER_WORKSPACE: positiveInt(15),
  /** Partition runs of one export running at once (across all replicas). */
  EXPORT_MAX_RUNNING_RUNS_PER_EXPORT: positiveInt(45),
  /**
   * Partition runs of one workspace published and waiting for a worker at once (across all replicas). Workers take
   * jobs first come first served, so this bounds how many of another workspace's jobs one waits behind; about the
   * workers' total slots (replicas x EXPORT_WORKER_CONCURRENCY) keeps them busy with one workspace alone.
   */
  EXPORT_MAX_QUEUED_RUNS_PER_WORKSPACE: positiveInt(16),
  /** Retries of a failed partition run before it (and its export) fails. */
  EXPORT_RUN_MAX_RETRIES: z.coerce.number().int().min(0).default(20),
  /** Wait before a failed partition run is retried. */
  EXPORT_RETRY_DELAY: duration(30_000),
  /** Longest one partition run may take. */
  EXPORT_RUN_TIMEOUT: duration(4 * 3_600_000),
  /** Longest a whole export may take. */
  EXPORT_TIMEOUT: duration(72 * 3_600_000),
  /** How long after an interval ends a scheduled export spawns its export (late runs arrive). */
  EXPORT_SCHEDULE_SPAWN_DELAY: duration(10 * 60_000),
  /** Re-publish a job whose publish was not confirmed after this long (keep it inside the bus's 2 min dedupe window). */
  EXPORT_REPUBLISH_AFTER: duration(30_000),
  /** Publish a new job for a run no worker started this long after its job was published (a lost message). */
  EXPORT_REDISPATCH_AFTER: duration(3_600_000),
  /** How often runs waiting for a slot are looked for and published to the workers. */
  EXPORT_DISPATCH_INTERVAL: duration(1_000),
  /** How often timed-out and lost runs are looked for. */
  EXPORT_SWEEP_INTERVAL: duration(5_000),
  /** How often scheduled exports are checked for an interval to spawn. */
  EXPORT_SCHEDULE_INTERVAL: duration(15_000),
  /** Run the dispatcher, scheduler and sweeper loops in this replica (every replica may; default on). */
  EXPORT_BACKGROUND_LOOPS: flag(true),
});

/** The service's variables: `npm run docs:env` lists them in its README. */
export const exportConfigSchema = schema;

export type ExportConfig = z.infer<typeof schema>;

export function loadExportConfig(env: Env = process.env): ExportConfig {
  return loadConfig(schema, env);
}
