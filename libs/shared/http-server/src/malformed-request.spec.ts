import http from 'node:http';
import { Writable } from 'node:stream';
import { brotliCompressSync } from 'node:zlib';
import request from 'supertest';
import { signIdentity } from '@platform/identity';
import { createLogger } from '@platform/logging';
import { KiB } from './body-limits';
import { createHttpApp } from './create-http-app';
import { startHttpServer } from './start-http-server';

const secret = 'test-internal-secret-123';

/** A service with a 1 KiB default body limit and one 4 KiB route, logging into `lines`. */
function build() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const app = createHttpApp({
    service: 'svc',
    logger: createLogger({ service: 'svc', level: 'debug', destination }),
    identity: { secret },
    bodyLimits: { defaultBytes: KiB, routes: [{ method: 'POST', path: '/big/:id', bytes: 4 * KiB }] },
    routes: (a) => {
      a.get('/items/:id', (req, res) => {
        res.json({ id: req.params.id });
      });
      a.post(['/small', '/big/:id'], (req, res) => {
        res.status(201).json({ size: JSON.stringify(req.body).length });
      });
    },
  }).app;
  const levels = () => lines.filter((l) => l.msg !== 'request').map((l) => l.level);
  return { app, lines, levels };
}

const signed = (requestId: string) => ({ ...signIdentity(secret, { tenantId: 't', organizationId: 'o', subject: 's' }, requestId), 'x-request-id': requestId });

describe('malformed requests (every service: createHttpApp)', () => {
  it('answers a path that is not percent-encoded UTF-8 with 400 naming it, logged at warn', async () => {
    const { app, levels } = build();
    for (const path of ['/items/%ff%fe', '/items/%ff', '/items/%E0%A4%A']) {
      const res = await request(app).get(path).set(signed('u1')).expect(400);
      expect(res.body).toEqual({ detail: expect.stringMatching(/^Malformed path: ".+" is not valid percent-encoded UTF-8$/) });
    }
    expect(levels()).toEqual(['warn', 'warn', 'warn']);
    await request(app).get('/items/%C3%A9').set(signed('u2')).expect(200, { id: 'é' });
  });

  it('answers a body that fails to decompress with 400 naming the encoding, logged at warn', async () => {
    const { app, lines, levels } = build();
    for (const encoding of ['br', 'gzip', 'deflate', 'zstd']) {
      const res = await request(app).post('/small').set(signed('b1')).set({ 'content-type': 'application/json', 'content-encoding': encoding }).send('{"not": "compressed"}');
      expect([encoding, res.status, res.body.detail]).toEqual([encoding, 400, expect.stringContaining(`not valid ${encoding}`)]);
    }
    expect(levels()).toEqual(['warn', 'warn', 'warn', 'warn']);
    expect(JSON.stringify(lines)).not.toContain('"stack"');
    const good = brotliCompressSync(JSON.stringify({ a: 'x'.repeat(100) }));
    await request(app).post('/small').set(signed('b2')).set({ 'content-type': 'application/json', 'content-encoding': 'br' }).serialize((b) => b).send(good).expect(201);
    await request(app).post('/small').set(signed('b3')).set({ 'content-type': 'application/json', 'content-encoding': 'compress' }).send('{}').expect(415);
    await request(app).post('/small').set(signed('b4')).set({ 'content-type': 'application/json; charset=latin1' }).send('{}').expect(415);
  });

  it('holds each route to its own limit, as sent and once decoded', async () => {
    const { app } = build();
    const twoKiB = { a: 'x'.repeat(2 * KiB) };
    const small = await request(app).post('/small').set(signed('l1')).send(twoKiB).expect(413);
    expect(small.body).toEqual({ detail: 'Request body is larger than 1024 bytes' });
    await request(app).post('/big/1').set(signed('l2')).send(twoKiB).expect(201);
    const bomb = brotliCompressSync(JSON.stringify({ a: 'x'.repeat(8 * KiB) }));
    const res = await request(app).post('/big/1').set(signed('l3')).set({ 'content-type': 'application/json', 'content-encoding': 'br' }).serialize((b) => b).send(bomb).expect(413);
    expect(res.body).toEqual({ detail: 'Decoded request body is larger than 4096 bytes' });
  });

  it('refuses a chunked body (no Content-Length) at its limit, and answers the client once it has sent it', async () => {
    const { app } = build();
    const server = await startHttpServer(app, '127.0.0.1', 0);
    try {
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(`${server.url}/small`, { method: 'POST', headers: { ...signed('s1'), 'content-type': 'application/json' } }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        // 3 MiB in 64 KiB chunks: dropped as it comes once past the 1 KiB limit, never held.
        for (let i = 0; i < 48; i++) req.write(i === 0 ? `{"a": "${'x'.repeat(64 * KiB)}` : 'x'.repeat(64 * KiB));
        req.end('"}');
      });
      expect(answer).toEqual({ status: 413, body: JSON.stringify({ detail: 'Request body is larger than 1024 bytes' }) });
    } finally {
      await server.close(100);
    }
  });
});
