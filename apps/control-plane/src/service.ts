import { serviceDataDir } from '@platform/config';
import { deploymentsService } from '@platform/contracts';
import { openControlPlaneDatabase } from '@platform/control-plane-data-access';
import { PrismaDeploymentStore } from '@platform/control-plane-deployments';
import { startGrpcServer } from '@platform/grpc';
import { Lifecycle, startHttpServer, type RunningService } from '@platform/http-server';
import type { Logger } from '@platform/logging';
import { createControlPlaneApp } from './app';
import type { ControlPlaneConfig } from './config';
import { deploymentsHandlers } from './grpc/deployments.handlers';

export function openDatabase(config: ControlPlaneConfig, logger?: Logger) {
  return openControlPlaneDatabase({ url: config.DATABASE_URL, dataDir: serviceDataDir(config.DATA_DIR, 'control-plane'), logger });
}

export function startControlPlane(config: ControlPlaneConfig, logger: Logger): Promise<RunningService> {
  return Lifecycle.start(logger, async (lifecycle) => {
    const db = await lifecycle.use('database', openDatabase(config, logger), (d) => d.close());
    if (config.MIGRATE_ON_START) await db.migrate();
    const deployments = new PrismaDeploymentStore(db.prisma);

    const grpc = await lifecycle.use(
      'grpc',
      startGrpcServer({
        host: config.HOST,
        port: config.GRPC_PORT,
        logger,
        auth: { token: config.INTERNAL_SECRET },
        services: [deploymentsService().implement(deploymentsHandlers(deployments))],
      }),
      (g) => g.shutdown(),
    );
    const app = createControlPlaneApp({
      logger,
      internalSecret: config.INTERNAL_SECRET,
      deployments,
      readiness: { database: () => db.ready() },
    });
    const http = await lifecycle.use('http', startHttpServer(app, config.HOST, config.PORT), (h) => h.close());
    return { name: 'control-plane', url: http.url, grpcPort: grpc.port };
  });
}
