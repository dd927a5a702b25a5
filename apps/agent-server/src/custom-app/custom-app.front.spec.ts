import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '@platform/logging';
import { CallerHandoff } from './caller-handoff';
import { createCustomAppFront } from './custom-app.front';
import { loadCustomApp } from './load-custom-app';

// The project's app, written as a project writes it: Hono's HTTPException with a message or a response of its own,
// and a plain error.
const APP_SOURCE = `
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
export const app = new Hono();
app.get('/refuse', () => { throw new HTTPException(400, { message: 'the app refuses this' }); });
app.get('/teapot', () => { throw new HTTPException(418, { res: new Response('short and stout', { status: 418, headers: { 'x-from': 'app' } }) }); });
app.get('/crash', () => { throw Object.assign(new Error('a bug in the app'), { stack: 'Error: a bug in the app (expected)' }); });
`;

const HONO = path.resolve(__dirname, '../../../../node_modules/hono');

/** A project folder with the app; `ownHono`: with a copy of hono of its own in its node_modules (a second module instance). */
function project(ownHono: boolean): string {
  const dir = fs.mkdtempSync(path.join(ownHono ? os.tmpdir() : path.join(__dirname, 'testing'), 'front-app-'));
  if (ownHono) fs.cpSync(HONO, path.join(dir, 'node_modules', 'hono'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'app.ts'), APP_SOURCE);
  return dir;
}

describe("the project's HTTP app in front of the core routes: its HTTPException answers what it says", () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

  const cases = [
    { name: 'its own hono copy, deployed', ownHono: true, dev: undefined },
    { name: "the platform's hono copy, deployed", ownHono: false, dev: undefined },
    { name: "the platform's hono copy, dev server", ownHono: false, dev: {} },
  ];
  it.each(cases)('$name', async ({ ownHono, dev }) => {
    const dir = project(ownHono);
    dirs.push(dir);
    const app = await loadCustomApp('./app.ts:app', dir);
    const front = createCustomAppFront({
      logger: createLogger({ service: 'test', level: 'silent' }),
      app,
      coreUrl: () => 'http://127.0.0.1:9',
      deploymentKey: 'front-spec-deployment-key-0123456789abcdef',
      isPublicPath: () => true,
      handoff: new CallerHandoff(),
      dev,
    });
    const server = http.createServer(front);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const refused = await fetch(`${url}/refuse`);
      expect({ status: refused.status, body: await refused.text() }).toEqual({ status: 400, body: 'the app refuses this' });
      const teapot = await fetch(`${url}/teapot`);
      expect({ status: teapot.status, from: teapot.headers.get('x-from'), body: await teapot.text() }).toEqual({ status: 418, from: 'app', body: 'short and stout' });
      // Any other error is a 500: the platform's JSON answer where the error reaches it, Hono's own where the
      // project's copy of Hono answers for its app (as it does on the reference).
      const crashed = await fetch(`${url}/crash`);
      expect({ status: crashed.status, body: await crashed.text() }).toEqual({
        status: 500,
        body: ownHono ? 'Internal Server Error' : JSON.stringify({ detail: 'Internal Server Error' }),
      });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
