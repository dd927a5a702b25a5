import { migrateAndClose, runService } from '@platform/http-server';
import { loadExportConfig } from './config';
import { openDatabase, startExport } from './service';

void runService({
  name: 'export',
  loadConfig: () => loadExportConfig(),
  logLevel: (config) => config.LOG_LEVEL,
  start: (config, logger) => startExport(config, logger),
  migrate: (config, logger) => migrateAndClose(openDatabase(config, logger)),
});
