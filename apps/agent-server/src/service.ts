import { serviceDataDir } from '@platform/config';
import { openAgentServerDatabase } from '@platform/agent-server-data-access';
import { Lifecycle, startHttpServer, type RunningService } from '@platform/http-server';
import type { Logger } from '@platform/logging';
import { createAgentServerApp } from './app';
import type { AgentServerConfig } from './config';

export const AGENT_SERVER_VERSION = '0.1.0';

export function openDatabase(config: AgentServerConfig, logger?: Logger) {
  return openAgentServerDatabase({ url: config.DATABASE_URL, dataDir: serviceDataDir(config.DATA_DIR, 'agent-server'), logger });
}

export function startAgentServer(config: AgentServerConfig, logger: Logger): Promise<RunningService> {
  return Lifecycle.start(logger, async (lifecycle) => {
    const db = await lifecycle.use('database', openDatabase(config, logger), (d) => d.close());
    if (config.MIGRATE_ON_START) await db.migrate();
    const app = createAgentServerApp({
      logger,
      internalSecret: config.INTERNAL_SECRET,
      version: AGENT_SERVER_VERSION,
      deploymentId: config.DEPLOYMENT_ID,
      readiness: { database: () => db.ready() },
    });
    const http = await lifecycle.use('http', startHttpServer(app, config.HOST, config.PORT), (h) => h.close());
    return { name: 'agent-server', url: http.url };
  });
}
