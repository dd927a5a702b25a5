import { openAgentServerDatabase } from '@platform/agent-server-data-access';
import { serviceDataDir } from '@platform/config';
import type { Logger } from '@platform/logging';
import type { AgentServerConfig } from './config';

export function openDatabase(config: AgentServerConfig, logger?: Logger) {
  return openAgentServerDatabase({
    url: config.DATABASE_URL,
    dataDir: serviceDataDir(config.DATA_DIR, 'agent-server'),
    poolSize: config.DATABASE_POOL_SIZE,
    logger,
  });
}
