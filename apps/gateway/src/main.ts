import { migrateAndClose, runService } from '@platform/http-server';
import { loadGatewayConfig } from './config';
import { bootstrapBanner, openDatabase, startGateway } from './service';

void runService({
  name: 'gateway',
  loadConfig: () => loadGatewayConfig(),
  logLevel: (config) => config.LOG_LEVEL,
  start: async (config, logger) => {
    const running = await startGateway(config, logger);
    if (running.bootstrap) process.stdout.write(`${bootstrapBanner(running.bootstrap, running.url)}\n`);
    return running;
  },
  migrate: (config, logger) => migrateAndClose(openDatabase(config, logger)),
});
