import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import request from 'supertest';
import { errorHandler } from '@platform/http-server';
import { consoleRoutes } from './console.routes';

function bundle(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-bundle-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><script type="module" src="/assets/index-abc123.js"></script>');
  fs.writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
  return dir;
}

describe('console routes', () => {
  const dir = bundle();
  const app = express().use(consoleRoutes(dir)).use(errorHandler);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('serves index.html at / and for client-side pages, never cached, with a same-origin-only policy', async () => {
    for (const page of ['/', '/console', '/console/deployments/x/studio']) {
      const res = await request(app).get(page).expect(200);
      expect(res.text).toContain('index-abc123.js');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-security-policy']).toContain("connect-src 'self'");
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    }
  });

  it('serves hashed assets as immutable for a year; an unknown asset is a 404', async () => {
    const res = await request(app).get('/assets/index-abc123.js').expect(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    await request(app).get('/assets/missing.js').expect(404);
    await request(app).get('/elsewhere').expect(404);
  });

  it('says how to build the console when the bundle is missing', async () => {
    const empty = express().use(consoleRoutes(path.join(dir, 'nothing-here'))).use(errorHandler);
    const res = await request(empty).get('/').expect(404);
    expect(res.body.detail).toMatch(/nx build console/);
  });
});
