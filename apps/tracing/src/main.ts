import { migrateAndClose, runService } from '@platform/http-server';
import { loadTracingConfig } from './config';
import { openDatabase, startTracing } from './service';

void runService({
  name: 'tracing',
  loadConfig: () => loadTracingConfig(),
  logLevel: (config) => config.LOG_LEVEL,
  start: startTracing,
  migrate: (config, logger) => migrateAndClose(openDatabase(config, logger)),
});
