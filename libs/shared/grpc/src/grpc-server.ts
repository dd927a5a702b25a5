import * as grpc from '@grpc/grpc-js';
import { HealthRegistry, healthServiceConstructor, type ServingStatus } from './health.service';
import { silentLogger, type GrpcLogger } from './logger';
import { wrapService } from './service-wrapper';

/** A service to serve: its definition (from `@platform/contracts`) and its handlers. */
export interface ServiceImplementation {
  definition: grpc.ServiceDefinition;
  handlers: grpc.UntypedServiceImplementation;
}

export interface GrpcServerOptions {
  /** Interface to bind; default `0.0.0.0`. */
  host?: string;
  /** 0 = an ephemeral port (see the returned `port`). */
  port: number;
  services: ServiceImplementation[];
  logger?: GrpcLogger;
  /** Internal auth: every call but health checks must carry `authorization: Bearer <token>`. */
  auth?: { token: string };
  /** Where `grpc/health/v1/health.proto` lives; default: the workspace's `proto/`. */
  protoDir?: string;
  /** grpc-js server options, e.g. message size limits. */
  serverOptions?: grpc.ServerOptions;
}

export interface GrpcServerHandle {
  port: number;
  server: grpc.Server;
  health: { setStatus(service: string, status: ServingStatus): void };
  /** Reports NOT_SERVING, lets in-flight calls finish for up to `graceMs`, then cancels the rest. */
  shutdown(graceMs?: number): Promise<void>;
}

/** The full service name of a definition, e.g. `controlplane.v1.Deployments`. */
export function serviceNameOf(definition: grpc.ServiceDefinition): string {
  const first = Object.values(definition)[0];
  return first ? first.path.split('/')[1] : '';
}

/**
 * Starts a gRPC server on insecure credentials (traffic stays inside the cluster) with the given
 * services, each wrapped for auth, logging and error mapping, plus `grpc.health.v1.Health`
 * reporting SERVING for the server ('') and for every service until told otherwise.
 */
export async function startGrpcServer(options: GrpcServerOptions): Promise<GrpcServerHandle> {
  const logger = options.logger ?? silentLogger;
  const server = new grpc.Server(options.serverOptions);
  const health = new HealthRegistry();

  for (const { definition, handlers } of options.services) {
    server.addService(definition, wrapService(definition, handlers, { logger, token: options.auth?.token }));
    health.setStatus(serviceNameOf(definition), 'SERVING');
  }
  // Health checks carry no token: probes and load balancers must reach them.
  const healthDefinition = healthServiceConstructor(options.protoDir).service;
  server.addService(healthDefinition, wrapService(healthDefinition, health.handlers(), { logger, level: 'debug' }));
  health.setStatus('', 'SERVING');

  const address = `${options.host ?? '0.0.0.0'}:${options.port}`;
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(address, grpc.ServerCredentials.createInsecure(), (err, bound) => (err ? reject(err) : resolve(bound))),
  );
  logger.info({ address, port, services: options.services.map((s) => serviceNameOf(s.definition)) }, 'gRPC server listening');

  const shutdown = (graceMs = 10_000): Promise<void> =>
    new Promise((resolve) => {
      health.shutdown();
      const timer = setTimeout(() => {
        logger.warn({ graceMs }, 'gRPC calls still running at the end of the grace period; cancelling them');
        server.forceShutdown();
        resolve();
      }, graceMs);
      server.tryShutdown(() => {
        clearTimeout(timer);
        resolve();
      });
    });

  return {
    port,
    server,
    health: {
      setStatus: (service, status) => health.setStatus(service, status),
    },
    shutdown,
  };
}
