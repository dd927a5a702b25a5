import { z } from 'zod';
import { commonServiceEnv, databaseUrl, flag, loadConfig, type Env } from '@platform/config';

const schema = z.object({
  ...commonServiceEnv({ httpPort: 8185 }),
  DATABASE_URL: databaseUrl(),
  MIGRATE_ON_START: flag(false),
  /** The deployment this instance serves (set by the control plane's driver). */
  DEPLOYMENT_ID: z.string().optional(),
});

export type AgentServerConfig = z.infer<typeof schema>;

export function loadAgentServerConfig(env: Env = process.env): AgentServerConfig {
  return loadConfig(schema, env);
}
