import { z } from 'zod';
import { commonServiceEnv, databaseUrl, flag, loadConfig, type Env } from '@platform/config';

const schema = z.object({
  ...commonServiceEnv({ httpPort: 8182, grpcPort: 50052 }),
  DATABASE_URL: databaseUrl(),
  MIGRATE_ON_START: flag(false),
  /** Largest ingest batch announced to SDKs in `/info`. */
  BATCH_SIZE_LIMIT_BYTES: z.coerce.number().int().positive().default(20_971_520),
  /** Most run operations per ingest batch announced to SDKs in `/info`. */
  BATCH_SIZE_LIMIT: z.coerce.number().int().positive().default(500),
  /** Largest ingest request body, as sent and once decoded; larger ones are refused with 413. */
  INGEST_MAX_BODY_BYTES: z.coerce.number().int().positive().default(67_108_864),
  /** Ingest batches written to the database at once by one replica. */
  INGEST_CONCURRENCY: z.coerce.number().int().positive().default(4),
  /** Largest run attachment (kept in the database); a larger one is refused with 413. At most the ingest body limit. */
  ATTACHMENT_MAX_BYTES: z.coerce.number().int().positive().max(1_073_741_823).default(20_971_520),
  /** How long a signed attachment download link works, in seconds. */
  ATTACHMENT_URL_TTL_SECONDS: z.coerce.number().int().positive().default(3600),
});

export type TracingConfig = z.infer<typeof schema>;

export function loadTracingConfig(env: Env = process.env): TracingConfig {
  return loadConfig(schema, env);
}
