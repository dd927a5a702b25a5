import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import request from 'supertest';
import { INGEST_LIMITS_HEADER, encodeIngestLimits, type IngestLimits } from '@platform/rate-limit';
import type { TracingDatabase } from '@platform/tracing-data-access';
import { IngestAdmission } from '@platform/tracing-runs';
import { asTenant, startTestTracingApp } from './tracing-app.testing';

jest.setTimeout(60_000);

const run = () => {
  const id = randomUUID();
  return { id, trace_id: id, dotted_order: `20240501T120000000001Z${id}`, name: 'root', run_type: 'chain', start_time: '2024-05-01T12:00:00.000001Z' };
};

const generous = { perSecond: 1_000_000, burst: 1_000_000 };
const limitsHeader = (limits: Partial<IngestLimits>) => ({
  [INGEST_LIMITS_HEADER]: encodeIngestLimits({ ingestRuns: generous, ingestBytes: generous, maxStoredRuns: 0, ...limits }),
});

describe('ingest limits per workspace (PGlite)', () => {
  let app: Express;
  let db: TracingDatabase;

  beforeAll(async () => {
    // Defaults for requests that carry no limits: 3 runs at once, then one per 100 s (slow enough for a loaded machine).
    ({ app, db } = await startTestTracingApp({
      admission: (runs) => new IngestAdmission({ defaults: { ingestRuns: { perSecond: 0.01, burst: 3 }, ingestBytes: generous, maxStoredRuns: 0 }, storedRuns: runs }),
    }));
  });
  afterAll(() => db?.close());

  const batch = (tenant: string, runs: number, headers: Record<string, string> = {}) =>
    request(app).post('/api/v1/runs/batch').set(asTenant(tenant)).set(headers).send({ post: Array.from({ length: runs }, run) });

  it("answers 429 with Retry-After past a workspace's runs per second, and leaves other workspaces alone", async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    const limits = limitsHeader({ ingestRuns: { perSecond: 0.01, burst: 4 } });
    await batch(a, 4, limits).expect(202);
    const refused = await batch(a, 1, limits).expect(429);
    // One run's worth of tokens: 100 s, less what came back while the first batch was written.
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(50);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(100);
    expect(refused.body.detail).toMatch(/runs per second/);
    await batch(b, 4, limits).expect(202);
    const stored = await request(app).post('/api/v1/runs/query').set(asTenant(a)).send({ limit: 100 }).expect(200);
    expect(stored.body.runs).toHaveLength(4);
  });

  it('holds a workspace whose requests carry no limits to the defaults', async () => {
    const a = randomUUID();
    await batch(a, 3).expect(202);
    const refused = await batch(a, 1).expect(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(50);
  });

  it('refuses a body past the bytes per second before reading it', async () => {
    const a = randomUUID();
    const limits = limitsHeader({ ingestBytes: { perSecond: 1, burst: 100 } });
    // Larger than the burst: admitted on a full bucket, which it leaves in debt.
    await batch(a, 1, limits).expect(202);
    const refused = await batch(a, 1, limits).expect(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(100);
    expect(refused.body.detail).toMatch(/bytes per second/);
  });

  it('charges a chunked multipart body (no Content-Length, as the SDK streams it) once read: the next one waits', async () => {
    const a = randomUUID();
    const server = app.listen(0);
    try {
      const { port } = server.address() as AddressInfo;
      const limits = limitsHeader({ ingestBytes: { perSecond: 1, burst: 100 } });
      const send = () => {
        const r = run();
        const body = `--b\r\nContent-Disposition: form-data; name="post.${r.id}"\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(r)}\r\n--b--\r\n`;
        const stream = new ReadableStream({ start: (c) => (c.enqueue(new TextEncoder().encode(body)), c.close()) });
        return fetch(`http://127.0.0.1:${port}/api/v1/runs/multipart`, {
          method: 'POST',
          headers: { ...asTenant(a), ...limits, 'content-type': 'multipart/form-data; boundary=b' },
          body: stream,
          duplex: 'half',
        } as RequestInit);
      };
      expect((await send()).status).toBe(202);
      const refused = await send();
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(100);
    } finally {
      server.close();
    }
  });

  it('refuses new runs past the stored-runs quota, still accepting updates', async () => {
    const a = randomUUID();
    const limits = limitsHeader({ maxStoredRuns: 3 });
    const runs = [run(), run()];
    await request(app).post('/api/v1/runs/batch').set(asTenant(a)).set(limits).send({ post: runs }).expect(202);
    const refused = await batch(a, 2, limits).expect(429);
    expect(refused.body.detail).toMatch(/quota/);
    expect(refused.headers['retry-after']).toBeDefined();
    await batch(a, 1, limits).expect(202);
    await request(app).patch(`/api/v1/runs/${runs[0].id}`).set(asTenant(a)).set(limits).send({ end_time: '2024-05-01T12:00:01Z' }).expect(202);
  });
});
