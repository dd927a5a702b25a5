import { runService } from '@platform/http-server';
import { loadExportWorkerConfig } from './config';
import { startExportWorker } from './service';

void runService({
  name: 'export-worker',
  loadConfig: () => loadExportWorkerConfig(),
  logLevel: (config) => config.LOG_LEVEL,
  start: (config, logger) => startExportWorker(config, logger),
});
