import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import { expressAppOf } from './express-messages';
import { startHttpServer } from './start-http-server';

describe('requests born with the express app prototypes', () => {
  function appReporting() {
    const app = express();
    app.get('/probe', (req, res) => {
      res.set('x-probe', 'yes').status(201).json({ path: req.path, query: req.query, ip: typeof req.ip });
    });
    return app;
  }

  it("makes an app's requests and responses with its prototypes before express sees them, and serves as before", async () => {
    const app = appReporting();
    const seen: { request: boolean; response: boolean }[] = [];
    // A listener in front of the app (as the gateway's and the Agent Server's are) sees the objects as Node made them.
    const front = (req: IncomingMessage, res: ServerResponse) => {
      seen.push({ request: Object.getPrototypeOf(req) === app.request, response: Object.getPrototypeOf(res) === app.response });
      app(req, res);
    };
    const running = await startHttpServer(front, '127.0.0.1', 0, { express: app });
    try {
      const answer = await fetch(`${running.url}/probe?a=1`);
      expect(answer.status).toBe(201);
      expect(answer.headers.get('x-probe')).toBe('yes');
      expect(await answer.json()).toEqual({ path: '/probe', query: { a: '1' }, ip: 'string' });
      expect((await fetch(`${running.url}/nowhere`)).status).toBe(404);
      expect(seen).toEqual([
        { request: true, response: true },
        { request: true, response: true },
      ]);
    } finally {
      await running.close(100);
    }
  });

  it('takes the app from the handler when the handler is the app, and leaves other handlers with plain Node objects', async () => {
    const app = appReporting();
    expect(expressAppOf(app)).toBe(app);
    const plain = (req: IncomingMessage, res: ServerResponse) => res.end(String(Object.getPrototypeOf(req) === app.request));
    expect(expressAppOf(plain)).toBeUndefined();
    const [served, bare] = [await startHttpServer(app, '127.0.0.1', 0), await startHttpServer(plain, '127.0.0.1', 0)];
    try {
      expect(await (await fetch(`${served.url}/probe`)).json()).toEqual({ path: '/probe', query: {}, ip: 'string' });
      expect(await (await fetch(bare.url)).text()).toBe('false');
    } finally {
      await Promise.all([served.close(100), bare.close(100)]);
    }
  });
});
