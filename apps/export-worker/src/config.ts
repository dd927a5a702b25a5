import { z } from 'zod';
import { commonServiceEnv, duration, loadConfig, natsStreamReplicas, natsPrefix, natsUrl, type Env } from '@platform/config';
import { egressEnv } from '@platform/egress';

const positiveInt = (fallback: number) => z.coerce.number().int().min(1).default(fallback);
const MIB = 1024 * 1024;

const schema = z.object({
  ...commonServiceEnv({ httpPort: 8184 }),
  NATS_URL: natsUrl(),
  NATS_STREAM_REPLICAS: natsStreamReplicas(),
  NATS_PREFIX: natsPrefix(),
  /** gRPC address (host:port) of the tracing service (runs are read from it). */
  TRACING_GRPC: z.string().regex(/^[^:\s]+:\d+$/, 'must be host:port'),
  /** gRPC address (host:port) of the export service (progress is reported to it). */
  EXPORT_GRPC: z.string().regex(/^[^:\s]+:\d+$/, 'must be host:port'),
  /** Partition runs this replica exports at once. */
  EXPORT_WORKER_CONCURRENCY: positiveInt(1),
  /** Bytes of row data per Parquet file at most (the file itself is smaller); a larger single run gets its own file. */
  EXPORT_WORKER_FILE_MAX_BYTES: positiveInt(64 * MIB),
  /** Rows per Parquet file at most. */
  EXPORT_WORKER_FILE_MAX_ROWS: positiveInt(1_000_000),
  /** Multipart upload part size (at least 5 MiB; grown for files that would need more than 10,000 parts). */
  EXPORT_WORKER_PART_BYTES: z.coerce.number().int().min(5 * MIB).default(8 * MIB),
  /** Parts uploaded at once per file. */
  EXPORT_WORKER_UPLOAD_CONCURRENCY: positiveInt(4),
  /** Runs per StreamRuns batch; 0 = the tracing service's default. */
  EXPORT_WORKER_STREAM_BATCH_SIZE: z.coerce.number().int().min(0).default(0),
  /** Deadline of one partition's StreamRuns call (a run may take up to the export's 4 h run timeout). */
  EXPORT_WORKER_STREAM_DEADLINE: duration(4 * 3_600_000),
  /** How long a job may go without a heartbeat before JetStream redelivers it; heartbeats go at a third of it. */
  EXPORT_WORKER_ACK_WAIT: duration(60_000),
  /** Retry delay of a job whose export service could not be reached. */
  EXPORT_WORKER_RETRY_DELAY: duration(10_000),
  /** Where rows are staged and files written before upload (and DuckDB spills); default the OS temp directory. */
  EXPORT_WORKER_TMP_DIR: z.string().optional(),
  /**
   * How often the worker removes the staging folders (under EXPORT_WORKER_TMP_DIR) of workers that died without
   * cleaning up (kill -9, OOM), besides at start: a dead worker's folder lasts at most this long while any worker on
   * the volume runs.
   */
  EXPORT_WORKER_STAGING_SWEEP_INTERVAL: duration(30_000),
  /**
   * DuckDB threads encoding Parquet; default one per partition in flight (EXPORT_WORKER_CONCURRENCY). A partition
   * encodes one file at a time while it streams the next, and one thread spends the least CPU per row (2 threads:
   * 15–50% more, measured by tools/bench/export/run.ts on 2 CPUs).
   */
  EXPORT_WORKER_DUCKDB_THREADS: z.coerce.number().int().min(1).optional(),
  /** DuckDB's memory limit (beyond it, it spills to the temp directory). */
  EXPORT_WORKER_DUCKDB_MEMORY: z.string().regex(/^\d+(\.\d+)?\s*(B|KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i, 'must be a size such as 512MB or 1GB').default('1GB'),
  /**
   * Workspaces (comma-separated ids, `*` for all) whose destinations may omit `credentials` and use the platform's own
   * AWS credentials (the SDK's default chain). Default none; set it like the export service's.
   */
  EXPORT_AMBIENT_CREDENTIALS_WORKSPACES: z
    .string()
    .optional()
    .transform((v) => (v ?? '').split(',').map((s) => s.trim()).filter(Boolean)),
  ...egressEnv(),
});

/** The service's variables: `npm run docs:env` lists them in its README. */
export const exportWorkerConfigSchema = schema;

export type ExportWorkerConfig = z.infer<typeof schema>;

export function loadExportWorkerConfig(env: Env = process.env): ExportWorkerConfig {
  return loadConfig(schema, env);
}
