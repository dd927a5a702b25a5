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

export function openDatabase(config: ControlPlaneConfig) {
  return openControlPlaneDatabase({ url: config.DATABASE_URL, dataDir: serviceDataDir(config.DATA_DIR, 'control-plane') });
}

export async function startControlPlane(config: ControlPlaneConfig, logger: Logger): Promise<RunningService> {
  const lifecycle = new Lifecycle(logger);
  try {
    const db = await openDatabase(config);
    lifecycle.onShutdown('database', () => db.close());
    if (config.MIGRATE_ON_START) await db.migrate();
    const deployments = new PrismaDeploymentStore(db.prisma);

    const grpc = await startGrpcServer({
      host: config.HOST,
      port: config.GRPC_PORT,
      logger,
      auth: { token: config.INTERNAL_SECRET },
      services: [deploymentsService().implement(deploymentsHandlers(deployments))],
    });
    lifecycle.onShutdown('grpc', () => grpc.shutdown());
    const app = createControlPlaneApp({
      logger,
      internalSecret: config.INTERNAL_SECRET,
      deployments,
      readiness: { database: () => db.ready() },
    });
    const http = await startHttpServer(app, config.HOST, config.PORT);
    lifecycle.onShutdown('http', () => http.close());
    return { name: 'control-plane', url: http.url, grpcPort: grpc.port, stop: () => lifecycle.shutdown() };
  } catch (err) {
    await lifecycle.shutdown('start failed');
    throw err;
  }
}
