import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { EgressPolicy } from '@platform/egress';
import { createLogger } from '@platform/logging';
import { createWebhookSender } from './run-webhook';

/** What a receiver does with the documented scheme: recompute over the raw body, compare in constant time, bound t. */
function receiverVerifies(secret: string, header: string | undefined, rawBody: string, nowSeconds: number, toleranceSeconds = 300): boolean {
  const parts = Object.fromEntries((header ?? '').split(',').map((kv) => kv.split('=') as [string, string]));
  const t = Number(parts['t']);
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > toleranceSeconds || !parts['v1']) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  const given = Buffer.from(parts['v1'], 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

describe('run webhooks (a real receiver on loopback)', () => {
  let server: http.Server;
  let url: string;
  const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  const lines: string[] = [];
  const logger = createLogger({ service: 'test', level: 'debug', destination: new Writable({ write: (c, _e, done) => (lines.push(String(c)), done()) }) });

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  beforeEach(() => {
    received.splice(0);
    lines.splice(0);
  });

  it.each([
    ['127.0.0.1', (u: string) => u],
    ['localhost', (u: string) => u.replace('127.0.0.1', 'localhost')],
    ['2130706433', (u: string) => u.replace('127.0.0.1', '2130706433')],
    ['[::ffff:127.0.0.1]', (u: string) => u.replace('127.0.0.1', '[::ffff:127.0.0.1]')],
  ])('refuses a webhook to an internal address (%s) without the operator allowing it, and logs why', async (_name, to) => {
    await createWebhookSender(logger)(to(url), { run_id: 'r1' });
    expect(received).toEqual([]);
    expect(lines.join('')).toMatch(/leads to a loopback address \(127\.0\.0\.0\/8/);
  });

  it('refuses the cloud metadata address', async () => {
    await createWebhookSender(logger, { timeoutMs: 2_000 })('http://169.254.169.254/latest/meta-data/', { run_id: 'r1' });
    expect(lines.join('')).toMatch(/leads to a link-local address \(169\.254\.0\.0\/16/);
  });

  it('signs each POST so that the receiver can verify it with the deployment secret', async () => {
    const secret = 'whsec-test-0123456789abcdef';
    await createWebhookSender(logger, { secret, egress: new EgressPolicy({ allowedCidrs: ['127.0.0.1/32'] }) })(url, { run_id: 'r1', status: 'success' });
    expect(received).toHaveLength(1);
    const [{ headers, body }] = received;
    expect(JSON.parse(body)).toMatchObject({ run_id: 'r1', status: 'success', webhook_sent_at: expect.any(String) });
    const header = headers['x-webhook-signature'] as string;
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const now = Math.floor(Date.now() / 1000);
    expect(receiverVerifies(secret, header, body, now)).toBe(true);
    // A tampered body, another secret, or a replay long after all fail.
    expect(receiverVerifies(secret, header, body.replace('success', 'error'), now)).toBe(false);
    expect(receiverVerifies('another-secret-0123456789', header, body, now)).toBe(false);
    expect(receiverVerifies(secret, header, body, now + 3600)).toBe(false);
  });

  it('sends no signature without a secret', async () => {
    await createWebhookSender(logger, { egress: new EgressPolicy({ allowedCidrs: ['127.0.0.1/32'] }) })(url, { run_id: 'r2' });
    expect(received).toHaveLength(1);
    expect(received[0].headers['x-webhook-signature']).toBeUndefined();
  });
});
