import { serviceDataDir } from '@platform/config';
import { openAgentServerDatabase } from '@platform/agent-server-data-access';
import { Lifecycle, startHttpServer, type RunningService } from '@platform/http-server';
import type { Logger } from '@platform/logging';
import { createAgentServerApp } from './app';
import type { AgentServerConfig } from './config';

export const AGENT_SERVER_VERSION = '0.1.0';

export function openDatabase(config: AgentServerConfig) {
  return openAgentServerDatabase({ url: config.DATABASE_URL, dataDir: serviceDataDir(config.DATA_DIR, 'agent-server') });
}

export async function startAgentServer(config: AgentServerConfig, logger: Logger): Promise<RunningService> {
  const lifecycle = new Lifecycle(logger);
  try {
    const db = await openDatabase(config);
    lifecycle.onShutdown('database', () => db.close());
    if (config.MIGRATE_ON_START) await db.migrate();
    const app = createAgentServerApp({
      logger,
      internalSecret: config.INTERNAL_SECRET,
      version: AGENT_SERVER_VERSION,
      deploymentId: config.DEPLOYMENT_ID,
      readiness: { database: () => db.ready() },
    });
    const http = await startHttpServer(app, config.HOST, config.PORT);
    lifecycle.onShutdown('http', () => http.close());
    return { name: 'agent-server', url: http.url, stop: () => lifecycle.shutdown() };
  } catch (err) {
    await lifecycle.shutdown('start failed');
    throw err;
  }
}
