import { migrateAndClose, runService } from '@platform/http-server';
import { loadControlPlaneConfig } from './config';
import { openDatabase, startControlPlane } from './service';

void runService({
  name: 'control-plane',
  loadConfig: () => loadControlPlaneConfig(),
  logLevel: (config) => config.LOG_LEVEL,
  start: startControlPlane,
  migrate: (config, logger) => migrateAndClose(openDatabase(config, logger)),
});
