import { z } from 'zod';
import { commonServiceEnv, loadConfig, natsUrl, type Env } from '@platform/config';

const schema = z.object({
  ...commonServiceEnv({ httpPort: 8184 }),
  NATS_URL: natsUrl(),
  /** gRPC address (host:port) of the tracing service (runs are read from it). */
  TRACING_GRPC: z.string().regex(/^[^:\s]+:\d+$/, 'must be host:port'),
  /** gRPC address (host:port) of the export service (progress is reported to it). */
  EXPORT_GRPC: z.string().regex(/^[^:\s]+:\d+$/, 'must be host:port'),
});

export type ExportWorkerConfig = z.infer<typeof schema>;

export function loadExportWorkerConfig(env: Env = process.env): ExportWorkerConfig {
  return loadConfig(schema, env);
}
