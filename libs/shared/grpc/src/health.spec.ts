import { NotFoundError } from '@platform/errors';
import { checkHealth } from './check-health';
import { createClient } from './grpc-client';
import { startGrpcServer, type GrpcServerHandle } from './grpc-server';
import { readStream } from './read-stream';
import { deploymentsProto, healthProto } from './grpc.testing';

const DEPLOYMENTS = 'controlplane.v1.Deployments';
let server: GrpcServerHandle;
let address: string;

beforeEach(async () => {
  const { definition } = deploymentsProto();
  server = await startGrpcServer({ host: '127.0.0.1', port: 0, services: [{ definition, handlers: {} }] });
  address = `127.0.0.1:${server.port}`;
});

afterEach(() => server.shutdown(1_000));

describe('grpc.health.v1.Health', () => {
  it('reports SERVING for the server and each service, then what it is told', async () => {
    await expect(checkHealth(address)).resolves.toBe('SERVING');
    await expect(checkHealth(address, { service: DEPLOYMENTS })).resolves.toBe('SERVING');
    server.health.setStatus(DEPLOYMENTS, 'NOT_SERVING');
    await expect(checkHealth(address, { service: DEPLOYMENTS })).resolves.toBe('NOT_SERVING');
  });

  it('answers NOT_FOUND for an unknown service', async () => {
    await expect(checkHealth(address, { service: 'nope.v1.Nothing' })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('streams changes to a watcher and ends the watch on shutdown', async () => {
    const { Client } = healthProto();
    const client = createClient(Client, address, { defaultDeadlineMs: 5_000 });
    const seen: string[] = [];
    const watching = (async () => {
      for await (const { status } of readStream(client, 'Watch', { service: DEPLOYMENTS })) {
        seen.push(status);
        if (seen.length === 1) server.health.setStatus(DEPLOYMENTS, 'NOT_SERVING');
        if (seen.length === 2) server.health.setStatus(DEPLOYMENTS, 'SERVING');
        if (seen.length === 3) void server.shutdown(1_000);
      }
    })();
    await watching;
    expect(seen).toEqual(['SERVING', 'NOT_SERVING', 'SERVING', 'NOT_SERVING']);
    client.close();
  });

  it('sends SERVICE_UNKNOWN to a watcher of an unknown service', async () => {
    const { Client } = healthProto();
    const client = createClient(Client, address);
    for await (const { status } of readStream(client, 'Watch', { service: 'nope.v1.Nothing' })) {
      expect(status).toBe('SERVICE_UNKNOWN');
      break;
    }
    client.close();
  });
});
