import {
  AuthenticationError,
  DeadlineExceededError,
  InternalError,
  NotFoundError,
  UnavailableError,
} from '@platform/errors';
import { callUnary } from './call-unary';
import { checkHealth } from './check-health';
import { createClient } from './grpc-client';
import { startGrpcServer, type GrpcServerHandle } from './grpc-server';
import { unary } from './handler-adapters';
import {
  aborted,
  deploymentsProto,
  recordingLogger,
  type DeploymentsTestClient,
  type ResolveRequest,
  type ResolveResponse,
} from './grpc.testing';

const proto = deploymentsProto();
const logger = recordingLogger();
const failuresLeft = new Map<string, number>();
let slowCallAborted: Promise<void> | undefined;

const handlers = {
  ResolveDeployment: unary<ResolveRequest, ResolveResponse>(async (req, ctx) => {
    const id = req.deployment_id;
    if (id === 'missing') throw new NotFoundError(`Deployment ${id} not found`);
    if (id === 'boom') throw new Error('db password is hunter2');
    if (id === 'slow') {
      slowCallAborted = aborted(ctx.signal);
      await slowCallAborted;
    }
    if ((failuresLeft.get(id) ?? 0) > 0) {
      failuresLeft.set(id, failuresLeft.get(id)! - 1);
      throw new UnavailableError('warming up');
    }
    return {
      deployment_id: id,
      tenant_id: req.tenant_id,
      name: ctx.requestId,
      upstream_url: 'http://127.0.0.1:9',
      status: 'READY',
      revision_id: 'rev-1',
    };
  }),
};

let server: GrpcServerHandle;
let client: DeploymentsTestClient;

beforeAll(async () => {
  server = await startGrpcServer({ host: '127.0.0.1', port: 0, services: [{ definition: proto.definition, handlers }], logger });
  client = createClient(proto.Client, `127.0.0.1:${server.port}`, { defaultDeadlineMs: 5_000 });
});

afterAll(async () => {
  client.close();
  await server.shutdown(1_000);
});

describe('startGrpcServer + callUnary', () => {
  it('answers a call and logs it with the caller’s request id', async () => {
    const res = await callUnary(client, 'ResolveDeployment', { deployment_id: 'd1', tenant_id: 't1' }, { requestId: 'req-1' });
    expect(res).toEqual(expect.objectContaining({ deployment_id: 'd1', tenant_id: 't1', name: 'req-1', status: 'READY' }));
    expect(logger.entries).toContainEqual(
      expect.objectContaining({
        level: 'info',
        obj: expect.objectContaining({ requestId: 'req-1', method: '/controlplane.v1.Deployments/ResolveDeployment', code: 'OK' }),
      }),
    );
  });

  it('accepts the camelCase method name too', async () => {
    const typed = client as DeploymentsTestClient & { resolveDeployment: DeploymentsTestClient['ResolveDeployment'] };
    await expect(callUnary(typed, 'resolveDeployment', { deployment_id: 'd2' })).resolves.toHaveProperty('deployment_id', 'd2');
  });

  it('maps NotFoundError to NOT_FOUND and back to NotFoundError', async () => {
    const call = callUnary(client, 'ResolveDeployment', { deployment_id: 'missing' });
    await expect(call).rejects.toBeInstanceOf(NotFoundError);
    await expect(call).rejects.toThrow('Deployment missing not found');
  });

  it('hides an unexpected error behind an opaque INTERNAL and logs its stack', async () => {
    const call = callUnary(client, 'ResolveDeployment', { deployment_id: 'boom' }, { requestId: 'req-boom' });
    await expect(call).rejects.toBeInstanceOf(InternalError);
    await expect(call).rejects.toThrow('Internal error');
    const logged = logger.entries.find((e) => e.level === 'error' && e.obj['requestId'] === 'req-boom');
    expect((logged?.obj['err'] as Error).stack).toContain('hunter2');
  });

  it('gives up at the deadline with DeadlineExceededError and aborts the handler’s signal', async () => {
    const started = Date.now();
    await expect(callUnary(client, 'ResolveDeployment', { deployment_id: 'slow' }, { deadlineMs: 150 })).rejects.toBeInstanceOf(
      DeadlineExceededError,
    );
    expect(Date.now() - started).toBeLessThan(2_000);
    await expect(slowCallAborted).resolves.toBeUndefined();
  });

  it('retries UNAVAILABLE and then succeeds', async () => {
    failuresLeft.set('flaky', 2);
    await expect(callUnary(client, 'ResolveDeployment', { deployment_id: 'flaky' }, { retries: 3 })).resolves.toHaveProperty(
      'deployment_id',
      'flaky',
    );
    expect(failuresLeft.get('flaky')).toBe(0);
  });

  it('does not retry unless asked', async () => {
    failuresLeft.set('flaky-once', 1);
    await expect(callUnary(client, 'ResolveDeployment', { deployment_id: 'flaky-once' })).rejects.toBeInstanceOf(UnavailableError);
  });

  it('rejects with the abort reason when the caller cancels', async () => {
    const controller = new AbortController();
    const call = callUnary(client, 'ResolveDeployment', { deployment_id: 'slow' }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('caller gave up')), 50);
    await expect(call).rejects.toThrow('caller gave up');
  });

  it('reports UnavailableError when nothing listens', async () => {
    const nobody = createClient(proto.Client, '127.0.0.1:1', { defaultDeadlineMs: 2_000 });
    await expect(callUnary(nobody, 'ResolveDeployment', { deployment_id: 'x' }, { retries: 1 })).rejects.toBeInstanceOf(
      UnavailableError,
    );
    nobody.close();
  });
});

describe('internal auth', () => {
  let secured: GrpcServerHandle;
  let address: string;

  beforeAll(async () => {
    secured = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      services: [{ definition: proto.definition, handlers }],
      auth: { token: 's3cret' },
    });
    address = `127.0.0.1:${secured.port}`;
  });

  afterAll(() => secured.shutdown(1_000));

  it.each([
    ['no token', undefined],
    ['a wrong token', 'guess'],
  ])('rejects a call with %s as AuthenticationError', async (_label, token) => {
    const c = createClient(proto.Client, address, { token });
    await expect(callUnary(c, 'ResolveDeployment', { deployment_id: 'd1' })).rejects.toBeInstanceOf(AuthenticationError);
    c.close();
  });

  it('accepts the right token', async () => {
    const c = createClient(proto.Client, address, { token: 's3cret' });
    await expect(callUnary(c, 'ResolveDeployment', { deployment_id: 'd1' })).resolves.toHaveProperty('deployment_id', 'd1');
    c.close();
  });

  it('lets health checks through without a token', async () => {
    await expect(checkHealth(address)).resolves.toBe('SERVING');
  });
});
