import { migrateAndClose, runService } from '@platform/http-server';
import { loadAgentServerConfig } from './config';
import { openDatabase, startAgentServer } from './service';

void runService({
  name: 'agent-server',
  loadConfig: () => loadAgentServerConfig(),
  logLevel: (config) => config.LOG_LEVEL,
  start: startAgentServer,
  migrate: (config, logger) => migrateAndClose(openDatabase(config, logger)),
});
