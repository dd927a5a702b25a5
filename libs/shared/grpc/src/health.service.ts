import { EventEmitter } from 'node:events';
import type * as grpc from '@grpc/grpc-js';
import { NotFoundError } from '@platform/errors';
import { serverStream, unary } from './handler-adapters';
import { loadProtoPackage, serviceConstructor } from './proto-files';

/** What a server reports for a service through `grpc.health.v1.Health`. */
export type ServingStatus = 'SERVING' | 'NOT_SERVING';

/** Every value of `HealthCheckResponse.ServingStatus`, as the loader's `enums: String` renders it. */
export type HealthStatus = ServingStatus | 'UNKNOWN' | 'SERVICE_UNKNOWN';

export const HEALTH_SERVICE_NAME = 'grpc.health.v1.Health';

/** The health service definition, loaded from `proto/grpc/health/v1/health.proto`. */
export function healthServiceConstructor(protoDir?: string): grpc.ServiceClientConstructor {
  return serviceConstructor(loadProtoPackage('grpc/health/v1/health.proto', protoDir), HEALTH_SERVICE_NAME);
}

interface HealthCheckRequest {
  service: string;
}

/**
 * Serving status per service name ('' = the whole server) and the Check / Watch handlers that
 * report it. Check answers NOT_FOUND for an unknown service; Watch sends SERVICE_UNKNOWN.
 */
export class HealthRegistry {
  private readonly statuses = new Map<string, ServingStatus>();
  private readonly changes = new EventEmitter().setMaxListeners(0);
  private readonly closed = new AbortController();

  setStatus(service: string, status: ServingStatus): void {
    if (this.statuses.get(service) === status) return;
    this.statuses.set(service, status);
    this.changes.emit('change');
  }

  getStatus(service: string): ServingStatus | undefined {
    return this.statuses.get(service);
  }

  /** Reports NOT_SERVING everywhere, then ends the Watch streams so the server can drain. */
  shutdown(): void {
    for (const service of this.statuses.keys()) this.setStatus(service, 'NOT_SERVING');
    this.closed.abort();
  }

  handlers(): grpc.UntypedServiceImplementation {
    return {
      Check: unary(async ({ service }: HealthCheckRequest) => {
        const status = this.statuses.get(service);
        if (!status) throw new NotFoundError(`Unknown service ${service}`);
        return { status };
      }),
      Watch: serverStream(this.watch.bind(this)),
    };
  }

  private async *watch({ service }: HealthCheckRequest, ctx: { signal: AbortSignal }): AsyncGenerator<{ status: HealthStatus }> {
    let sent: HealthStatus | undefined;
    for (;;) {
      // Subscribe before reading, so a change made while a message is being written is not missed.
      const changed = this.nextChange(ctx.signal);
      const status = this.statuses.get(service) ?? 'SERVICE_UNKNOWN';
      if (status !== sent) {
        sent = status;
        yield { status };
      }
      if (!(await changed)) return;
    }
  }

  /** Resolves true on the next change, false when the call or the registry is closed. */
  private nextChange(signal: AbortSignal): Promise<boolean> {
    return new Promise((resolve) => {
      const settle = (changed: boolean) => (): void => {
        this.changes.off('change', onChange);
        signal.removeEventListener('abort', onStop);
        this.closed.signal.removeEventListener('abort', onStop);
        resolve(changed);
      };
      const onChange = settle(true);
      const onStop = settle(false);
      if (signal.aborted || this.closed.signal.aborted) return onStop();
      this.changes.on('change', onChange);
      signal.addEventListener('abort', onStop);
      this.closed.signal.addEventListener('abort', onStop);
    });
  }
}
