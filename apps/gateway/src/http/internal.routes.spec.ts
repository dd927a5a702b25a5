import { randomUUID } from 'node:crypto';
import express from 'express';
import request from 'supertest';
import { IdentityRepository, openGatewayDatabase, type GatewayDatabase } from '@platform/gateway-data-access';
import { Authenticator, bootstrapIdentity, type BootstrapResult } from '@platform/gateway-identity';
import { bodyLimits, errorHandler } from '@platform/http-server';
import { GATEWAY_BODY_LIMITS } from '../app';
import { signIdentity } from '@platform/identity';
import { mountRoutes } from '@platform/openapi';
import { internalRoutes } from './internal.routes';

const SECRET = 'internal-routes-secret-0123456789';

describe('internal service keys (in-memory PGlite)', () => {
  let db: GatewayDatabase;
  let store: IdentityRepository;
  let boot: BootstrapResult;
  let app: express.Express;

  beforeAll(async () => {
    db = await openGatewayDatabase({ dataDir: 'memory://' });
    await db.migrate();
    store = new IdentityRepository(db.prisma);
    boot = (await bootstrapIdentity(store)) as BootstrapResult;
    app = express();
    app.use((req, res, next) => {
      res.locals.requestId = req.headers['x-request-id'] ?? 'none';
      next();
    });
    app.use(bodyLimits(GATEWAY_BODY_LIMITS));
    mountRoutes(app, internalRoutes(store, SECRET));
    app.use(errorHandler);
  }, 60_000);
  afterAll(() => db?.close());

  const signed = (secret: string, workspaceId: string, organizationId: string) => {
    const requestId = randomUUID();
    return { 'x-request-id': requestId, ...signIdentity(secret, { tenantId: workspaceId, organizationId, subject: 'control-plane' }, requestId) };
  };

  it('mints a workspace-bound member key for a signed request, which authenticates, and revokes it', async () => {
    const headers = signed(SECRET, boot.workspace.id, boot.organization.id);
    const minted = await request(app).post('/internal/v1/service-keys').set(headers).send({ description: 'tracing for d1' }).expect(201);
    expect(minted.body).toEqual({ id: expect.any(String), workspace_id: boot.workspace.id, key: expect.stringMatching(/^lsv2_sk_/) });
    const caller = await new Authenticator(store).authenticate(minted.body.key, undefined);
    expect(caller.identity).toMatchObject({ tenantId: boot.workspace.id, organizationId: boot.organization.id });
    expect(caller.key).toMatchObject({ role: 'member', description: 'tracing for d1' });

    await request(app).delete(`/internal/v1/service-keys/${minted.body.id}`).set(signed(SECRET, boot.workspace.id, boot.organization.id)).expect(204);
    await expect(new Authenticator(store).authenticate(minted.body.key, undefined)).rejects.toThrow('Invalid API key');
  });

  it('refuses unsigned or wrongly signed requests, and workspaces outside the organization', async () => {
    await request(app).post('/internal/v1/service-keys').send({}).expect(401);
    await request(app).post('/internal/v1/service-keys').set('x-api-key', boot.apiKey).send({}).expect(401);
    await request(app).post('/internal/v1/service-keys').set(signed('another-secret-0123456789', boot.workspace.id, boot.organization.id)).send({}).expect(401);
    await request(app).post('/internal/v1/service-keys').set(signed(SECRET, randomUUID(), boot.organization.id)).send({}).expect(400);
    const other = await request(app).post('/internal/v1/service-keys').set(signed(SECRET, boot.workspace.id, boot.organization.id)).send({}).expect(201);
    await request(app).delete(`/internal/v1/service-keys/${other.body.id}`).set(signed(SECRET, randomUUID(), boot.organization.id)).expect(404);
  });
});
