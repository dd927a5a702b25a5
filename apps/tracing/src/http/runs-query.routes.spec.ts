import { randomUUID } from 'node:crypto';
import express, { type Express } from 'express';
import { Client } from 'langsmith';
import request from 'supertest';
import { createHttpApp, startHttpServer, type RunningHttpServer } from '@platform/http-server';
import { signIdentity } from '@platform/identity';
import { silentLogger } from '@platform/logging';
import { mountRoutes } from '@platform/openapi';
import { openTracingDatabase, prismaIngestSql, type TracingDatabase } from '@platform/tracing-data-access';
import { AttachmentLinks, RunAttachmentsRepository, RunQueryRepository } from '@platform/tracing-runs';
import { runsQueryRoutes } from './runs-query.routes';

const secret = 'test-internal-secret-123';
const TENANT = '11111111-1111-4111-8111-111111111111';
const SESSION = '33333333-3333-4333-8333-333333333333';
const BIG_SESSION = '33333333-3333-4333-8333-444444444444';
const runId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

// Plays the gateway: signs every request for TENANT, so the SDK can talk to the service as it would in production.
function asGateway(app: Express): Express {
  const outer = express();
  outer.use((req, _res, next) => {
    const requestId = randomUUID();
    Object.assign(req.headers, { 'x-request-id': requestId }, signIdentity(secret, { tenantId: TENANT, organizationId: 'org', subject: 'key' }, requestId));
    next();
  });
  outer.use(app);
  return outer;
}

describe('runs query routes', () => {
  let db: TracingDatabase;
  let app: Express;
  let server: RunningHttpServer;

  beforeAll(async () => {
    db = await openTracingDatabase({ dataDir: 'memory://' });
    await db.migrate();
    for (let n = 1; n <= 7; n++) {
      await db.prisma.$executeRawUnsafe(
        `INSERT INTO runs (tenant_id, id, session_id, trace_id, is_root, name, run_type, start_time, end_time, tags, has_create)
         VALUES ($1::uuid, $2::uuid, $3::uuid, $2::uuid, true, $4, $5, $6::timestamptz, $7::timestamptz, $8::text[], true)`,
        TENANT,
        runId(n),
        SESSION,
        `run-${n}`,
        n % 2 ? 'llm' : 'chain',
        `2024-05-01T10:00:0${n}Z`,
        `2024-05-01T10:00:${String(n * 3).padStart(2, '0')}Z`,
        n === 3 ? ['experimental'] : [],
      );
    }
    // 150 runs, one per second: more than one page of 100.
    await db.prisma.$executeRawUnsafe(
      `INSERT INTO runs (tenant_id, id, session_id, trace_id, is_root, name, start_time, has_create)
       SELECT $1::uuid, g.id, $2::uuid, g.id, true, 'bulk-' || g.n, timestamptz '2024-06-01T00:00:00Z' + g.n * interval '1 second', true
       FROM (SELECT n, ('00000000-0000-4000-9000-' || lpad(n::text, 12, '0'))::uuid AS id FROM generate_series(1, 150) n) g`,
      TENANT,
      BIG_SESSION,
    );
    const inner = createHttpApp({
      service: 'tracing',
      logger: silentLogger,
      identity: { secret },
      routes: (a) => {
        const attachments = { attachments: new RunAttachmentsRepository(prismaIngestSql(db.prisma)), links: new AttachmentLinks({ secret, ttlSeconds: 60 }) };
        mountRoutes(a, runsQueryRoutes(new RunQueryRepository(prismaIngestSql(db.prisma)), attachments));
      },
    }).app;
    app = asGateway(inner);
    server = await startHttpServer(app, '127.0.0.1', 0);
  });
  afterAll(async () => {
    await server?.close(100);
    await db?.close();
  });

  it('answers POST /runs/query with runs and cursors', async () => {
    const res = await request(app).post('/api/v1/runs/query').send({ session: [SESSION], limit: 3 }).expect(200);
    expect(res.body.runs.map((r: { name: string }) => r.name)).toEqual(['run-7', 'run-6', 'run-5']);
    expect(res.body.cursors).toEqual({ next: expect.any(String), prev: null });
    const next = await request(app).post('/api/v1/runs/query').send({ session: [SESSION], limit: 3, cursor: res.body.cursors.next }).expect(200);
    expect(next.body.runs.map((r: { name: string }) => r.name)).toEqual(['run-4', 'run-3', 'run-2']);
  });

  it('answers a bad filter with 400 naming the position, and bad fields with 422', async () => {
    const res = await request(app).post('/api/v1/runs/query').send({ filter: 'and(eq(name, "a"), )' }).expect(400);
    expect(res.body).toEqual({ detail: 'Invalid filter: Unexpected ")" at position 19: expected a value' });
    const invalid = await request(app).post('/api/v1/runs/query').send({ limit: 0 }).expect(422);
    expect(invalid.body.detail[0]).toMatchObject({ loc: ['body', 'limit'] });
    await request(app).post('/api/v1/runs/query').send({ cursor: 'nope' }).expect(400, { detail: 'Invalid cursor' });
  });

  it('validates filters without running them', async () => {
    await request(app).post('/api/v1/runs/query/validate').send({ filter: 'gt(latency, "5s")' }).expect(200, { valid: true });
    const res = await request(app).post('/api/v1/runs/query/validate').send({ tree_filter: 'gt(tags, 1)' }).expect(400);
    expect(res.body.detail).toBe('Invalid tree_filter: Operator gt() is not allowed for field "tags" at position 0: use has');
  });

  it('serves the langsmith SDK: listRuns pages with the cursor and sends filters', async () => {
    const client = new Client({ apiUrl: `${server.url}/api/v1`, apiKey: 'test-key', autoBatchTracing: false });
    const names = async (props: Parameters<Client['listRuns']>[0]) => {
      const out: string[] = [];
      for await (const run of client.listRuns(props)) out.push(run.name);
      return out;
    };
        expect(await names({ projectId: SESSION })).toEqual(['run-7', 'run-6', 'run-5', 'run-4', 'run-3', 'run-2', 'run-1']);
    expect(await names({ projectId: SESSION, filter: 'and(eq(run_type, "llm"), gt(latency, 9))' })).toEqual(['run-7', 'run-5']);
    expect(await names({ projectId: SESSION, filter: 'has(tags, "experimental")' })).toEqual(['run-3']);
    expect(await names({ projectId: SESSION, limit: 2 })).toEqual(['run-7', 'run-6']);
    // More than a page: the SDK follows cursors.next until it is null, and sees every run once.
    const bulk = await names({ projectId: BIG_SESSION });
    expect(bulk).toHaveLength(150);
    expect(new Set(bulk).size).toBe(150);
    expect([bulk[0], bulk[99], bulk[100], bulk[149]]).toEqual(['bulk-150', 'bulk-51', 'bulk-50', 'bulk-1']);
    await expect(names({ projectId: SESSION, filter: 'eq(nope, 1)' })).rejects.toThrow(/status \[400\].*Unknown field \\"nope\\" at position 3/);
  });
});
