import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { signIdentity } from '@platform/identity';
import { silentLogger } from '@platform/logging';
import { MiB } from './body-limits';
import { createHttpApp } from './create-http-app';
import { startHttpServer, type RunningHttpServer } from './start-http-server';

const secret = 'test-internal-secret-123';
const HEADERS_MS = 400;
const BODY_IDLE_MS = 400;
// What a loaded machine may add to a limit before the server acts on it.
const MARGIN_MS = 2_500;

/** A raw connection to the server, collecting what it answers, with the time it was closed. */
class RawClient {
  readonly socket: Socket;
  received = '';
  closedAt?: number;
  private readonly closed: Promise<void>;
  constructor(port: number) {
    this.socket = connect(port, '127.0.0.1');
    this.socket.on('data', (chunk: Buffer) => (this.received += chunk.toString('latin1')));
    this.socket.on('error', () => undefined);
    this.closed = new Promise((resolve) =>
      this.socket.once('close', () => {
        this.closedAt = Date.now();
        resolve();
      }),
    );
  }
  write(text: string | Buffer): Promise<void> {
    return new Promise((resolve, reject) => this.socket.write(text, (err) => (err ? reject(err) : resolve())));
  }
  /** Waits until the server closed the connection, failing past `withinMs`. */
  async closedWithin(withinMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`still open after ${withinMs} ms; received ${JSON.stringify(this.received)}`)), withinMs);
    });
    try {
      await Promise.race([this.closed, late]);
    } finally {
      clearTimeout(timer);
    }
  }
  /** Waits until `text` has been received (bounded). */
  async receives(text: string, withinMs = 10_000): Promise<void> {
    const until = Date.now() + withinMs;
    while (!this.received.includes(text)) {
      if (Date.now() > until) throw new Error(`no ${JSON.stringify(text)} after ${withinMs} ms; received ${JSON.stringify(this.received)}`);
      await sleep(10);
    }
  }
}

const signed = () => Object.entries({ ...signIdentity(secret, { tenantId: 't', organizationId: 'o', subject: 's' }, 'r1'), 'x-request-id': 'r1' });
const head = (path: string, headers: Record<string, string | number> = {}, method = 'POST') =>
  [`${method} ${path} HTTP/1.1`, 'Host: x', ...signed().map(([k, v]) => `${k}: ${v}`), ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), '', ''].join('\r\n');

describe('startHttpServer: slow clients (every service)', () => {
  let running: RunningHttpServer;
  const bodiesSeen: number[] = [];

  beforeAll(async () => {
    const { app } = createHttpApp({
      service: 'svc',
      logger: silentLogger,
      identity: { secret },
      bodyLimits: { defaultBytes: 8 * MiB },
      routes: (a) => {
        a.post('/json', (req, res) => {
          bodiesSeen.push(JSON.stringify(req.body).length);
          res.json({ size: JSON.stringify(req.body).length });
        });
        // Reads its body only after a while: the server holds the rest back meanwhile (backpressure), which is no stall.
        a.post('/later', async (req, res) => {
          await sleep(BODY_IDLE_MS * 3);
          let size = 0;
          for await (const chunk of req) size += (chunk as Buffer).length;
          res.json({ size });
        });
        // An event stream with pauses longer than any idle limit, after a body.
        a.post('/stream', (_req, res) => {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          let sent = 0;
          const timer = setInterval(() => {
            res.write(`data: ${++sent}\n\n`);
            if (sent === 3) {
              clearInterval(timer);
              res.end();
            }
          }, BODY_IDLE_MS * 2);
        });
      },
    });
    running = await startHttpServer(app, '127.0.0.1', 0, { headersTimeoutMs: HEADERS_MS, bodyIdleTimeoutMs: BODY_IDLE_MS });
  });
  afterAll(() => running?.close(100));

  it('answers 408 and closes a connection whose headers stall, within the headers limit', async () => {
    const client = new RawClient(running.port);
    const start = Date.now();
    await client.write('POST /json HTTP/1.1\r\nHost: x\r\nContent-');
    await client.closedWithin(HEADERS_MS + MARGIN_MS);
    expect(client.received).toMatch(/^HTTP\/1\.1 408 /);
    expect(client.closedAt! - start).toBeGreaterThanOrEqual(HEADERS_MS - 50);
  });

  it('answers 408 naming the limit and closes a connection whose body stalls, within the body idle limit', async () => {
    for (const [path, headers, partial] of [
      ['/json', { 'content-type': 'application/json', 'content-length': 100 }, '{"a": "'],
      ['/json', { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, '7\r\n{"a": "\r\n'],
      // A route that has not begun reading its body yet.
      ['/later', { 'content-type': 'application/octet-stream', 'content-length': 100 }, 'x'],
    ] as [string, Record<string, string | number>, string][]) {
      const client = new RawClient(running.port);
      await client.write(head(path, headers));
      await client.write(partial);
      const start = Date.now();
      await client.closedWithin(BODY_IDLE_MS + MARGIN_MS);
      expect(client.closedAt! - start).toBeGreaterThanOrEqual(BODY_IDLE_MS - 50);
      expect(client.received).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
      expect(client.received).toContain(`{"detail":"Request body stalled: no bytes of it arrived for ${BODY_IDLE_MS} ms"}`);
    }
    // The server goes on serving.
    const res = await fetch(`${running.url}/json`, { method: 'POST', headers: { ...Object.fromEntries(signed()), 'content-type': 'application/json' }, body: '{"ok": 1}' });
    expect(res.status).toBe(200);
  });

  it('never cuts a slow but steady upload, however much longer than the idle limit it takes', async () => {
    // No total limit either: Node's requestTimeout (300 s by default) would cut a slow 100 MiB upload.
    expect(running.server.requestTimeout).toBe(0);
    const client = new RawClient(running.port);
    const chunks = 12;
    const piece = `"${'x'.repeat(1000)}",`;
    const body = `[${piece.repeat(chunks)}1]`;
    await client.write(head('/json', { 'content-type': 'application/json', 'content-length': body.length }));
    const start = Date.now();
    for (let i = 0; i < body.length; i += piece.length) {
      await client.write(body.slice(i, i + piece.length));
      await sleep(BODY_IDLE_MS / 2);
    }
    await client.receives('"size":');
    expect(Date.now() - start).toBeGreaterThan(BODY_IDLE_MS * 2);
    expect(client.received).toMatch(/^HTTP\/1\.1 200 /);
    expect(client.received).toContain(`{"size":${body.length}}`);
    client.socket.destroy();
  });

  it('does not count the time the server itself is not reading the body (backpressure)', async () => {
    const client = new RawClient(running.port);
    const size = 4 * MiB;
    await client.write(head('/later', { 'content-type': 'application/octet-stream', 'content-length': size }));
    await client.write(Buffer.alloc(size, 1));
    await client.receives(`{"size":${size}}`);
    expect(client.received).toMatch(/^HTTP\/1\.1 200 /);
    client.socket.destroy();
  });

  it('never cuts a response stream, nor a kept-alive connection idle between requests', async () => {
    const client = new RawClient(running.port);
    await client.write(head('/stream', { 'content-length': 2 }));
    await client.write('{}');
    await client.receives('data: 3\n\n', 20_000);
    expect(client.received).toMatch(/^HTTP\/1\.1 200 /);
    expect(client.closedAt).toBeUndefined();
    // Idle on the kept-alive connection for longer than both limits, then another request on it.
    await sleep(HEADERS_MS + BODY_IDLE_MS);
    expect(client.closedAt).toBeUndefined();
    client.received = '';
    await client.write(head('/json', { 'content-type': 'application/json', 'content-length': 2 }));
    await client.write('{}');
    await client.receives('{"size":2}');
    client.socket.destroy();
  });
});
