import { z } from 'zod';
import { commonServiceEnv, migrateOnStart, databaseUrl, loadConfig, type Env } from '@platform/config';
import { workspaceLimitsEnv } from '@platform/rate-limit';

const schema = z
  .object({
    ...commonServiceEnv({ httpPort: 8182, grpcPort: 50052 }),
    DATABASE_URL: databaseUrl(),
    MIGRATE_ON_START: migrateOnStart(),
    /** Largest ingest batch announced to SDKs in `/info`. */
    BATCH_SIZE_LIMIT_BYTES: z.coerce.number().int().positive().default(20_971_520),
    /** Most run operations per ingest batch announced to SDKs in `/info`. */
    BATCH_SIZE_LIMIT: z.coerce.number().int().positive().default(500),
    /** Largest `POST /runs/multipart` body (the SDK's path, attachments included), as sent and once decoded; 413 beyond. */
    INGEST_MAX_BODY_BYTES: z.coerce.number().int().positive().default(67_108_864),
    /** Largest JSON ingest body (`/runs/batch`, `POST /runs`, `PATCH /runs/{id}`): at least BATCH_SIZE_LIMIT_BYTES; 413 beyond. */
    INGEST_JSON_MAX_BODY_BYTES: z.coerce.number().int().positive().default(26_214_400),
    /** Ingest batches written to the database at once by one replica, shared fairly (round robin) by workspaces. */
    INGEST_CONCURRENCY: z.coerce.number().int().positive().default(4),
    /** Ingest batches of one workspace waiting for a write slot in one replica; more are answered 429. */
    INGEST_MAX_QUEUED_PER_WORKSPACE: z.coerce.number().int().positive().default(1000),
    /** The limits of a workspace whose request carries none from the gateway (the gateway sends each workspace's). */
    ...workspaceLimitsEnv(),
    /** Largest run attachment (a part of a multipart body, kept in the database); 413 beyond. INGEST_MAX_BODY_BYTES caps it. */
    ATTACHMENT_MAX_BYTES: z.coerce.number().int().positive().max(1_073_741_823).default(20_971_520),
    /** How long a signed attachment download link works, in seconds. */
    ATTACHMENT_URL_TTL_SECONDS: z.coerce.number().int().positive().default(3600),
  })
  .superRefine((config, ctx) => {
    // The SDK sends batches up to the announced size: a smaller limit would refuse them.
    if (config.INGEST_JSON_MAX_BODY_BYTES < config.BATCH_SIZE_LIMIT_BYTES) {
      ctx.addIssue({ code: 'custom', path: ['INGEST_JSON_MAX_BODY_BYTES'], message: 'must be at least BATCH_SIZE_LIMIT_BYTES' });
    }
  });

/** The service's variables: `npm run docs:env` lists them in its README. */
export const tracingConfigSchema = schema;

export type TracingConfig = z.infer<typeof schema>;

export function loadTracingConfig(env: Env = process.env): TracingConfig {
  return loadConfig(schema, env);
}
