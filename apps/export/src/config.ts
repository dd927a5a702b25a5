import { z } from 'zod';
import { commonServiceEnv, databaseUrl, flag, loadConfig, natsUrl, type Env } from '@platform/config';

const schema = z.object({
  ...commonServiceEnv({ httpPort: 8183, grpcPort: 50053 }),
  DATABASE_URL: databaseUrl(),
  MIGRATE_ON_START: flag(false),
  NATS_URL: natsUrl(),
});

export type ExportConfig = z.infer<typeof schema>;

export function loadExportConfig(env: Env = process.env): ExportConfig {
  return loadConfig(schema, env);
}
