import type * as grpc from '@grpc/grpc-js';
import { callUnary } from './call-unary';
import { createClient, type ClientConstructor } from './grpc-client';
import { healthServiceConstructor, type HealthStatus } from './health.service';

interface HealthClient extends grpc.Client {
  Check(argument: { service?: string }, callback: grpc.requestCallback<{ status: HealthStatus }>): grpc.ClientUnaryCall;
}

export interface CheckHealthOptions {
  /** Service to ask about; default '' (the server as a whole). */
  service?: string;
  /** Default 2 s. */
  deadlineMs?: number;
  protoDir?: string;
}

/**
 * Asks a server's `grpc.health.v1.Health/Check` for a service's status. Rejects with
 * NotFoundError for an unknown service and UnavailableError when nothing answers.
 */
export async function checkHealth(address: string, options: CheckHealthOptions = {}): Promise<HealthStatus> {
  const Ctor = healthServiceConstructor(options.protoDir) as unknown as ClientConstructor<HealthClient>;
  const client = createClient(Ctor, address, { defaultDeadlineMs: options.deadlineMs ?? 2_000 });
  try {
    const { status } = await callUnary(client, 'Check', { service: options.service ?? '' });
    return status;
  } finally {
    client.close();
  }
}
