import { z } from 'zod';
import { commonServiceEnv, databaseUrl, flag, loadConfig, type Env } from '@platform/config';

const schema = z.object({
  ...commonServiceEnv({ httpPort: 8181, grpcPort: 50051 }),
  DATABASE_URL: databaseUrl(),
  MIGRATE_ON_START: flag(false),
});

export type ControlPlaneConfig = z.infer<typeof schema>;

export function loadControlPlaneConfig(env: Env = process.env): ControlPlaneConfig {
  return loadConfig(schema, env);
}
