import request from 'supertest';
import { ServiceUnavailableError } from '@platform/errors';
import { silentLogger } from '@platform/logging';
import { createHttpApp } from './create-http-app';

describe('error middleware: a dependency outage', () => {
  const { app } = createHttpApp({
    service: 'svc',
    logger: silentLogger,
    readiness: { database: async () => false },
    routes: (routes) => {
      routes.get('/outage', async () => {
        throw new ServiceUnavailableError('database', { cause: new Error('connect ECONNREFUSED 127.0.0.1:5432'), retryAfterSeconds: 2 });
      });
    },
  });

  it('answers 503 naming the dependency, with Retry-After, not a 500', async () => {
    const res = await request(app).get('/outage').expect(503);
    expect(res.body).toEqual({ detail: 'database unavailable' });
    expect(res.headers['retry-after']).toBe('2');
  });

  it('says which dependency is down on /ready while /ok stays up', async () => {
    await request(app).get('/ok').expect(200);
    const ready = await request(app).get('/ready').expect(503);
    expect(JSON.stringify(ready.body)).toContain('database');
  });
});
