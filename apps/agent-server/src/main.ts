import { migrateAndClose, runService } from '@platform/http-server';
import { loadAgentServerConfig } from './config';
import { openDatabase } from './database';
import { useDeploymentPackages } from './deployment-packages';

void runService({
  name: 'agent-server',
  loadConfig: () => loadAgentServerConfig(),
  logLevel: (config) => config.LOG_LEVEL,
  start: async (config, logger) => {
    useDeploymentPackages(config.LANGGRAPH_CONFIG_PATH, logger);
    // Loaded only now: the server's LangGraph.js imports must resolve to the deployment's copies.
    const { startAgentServer } = await import('./service.js');
    return startAgentServer(config, logger);
  },
  migrate: (config, logger) => migrateAndClose(openDatabase(config, logger)),
});
