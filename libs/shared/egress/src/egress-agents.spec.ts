import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { egressAgents } from './egress-agents';
import { EgressPolicy, EgressRefusedError, type ResolvedAddress } from './egress-policy';
import { egressPost } from './egress-post';

describe('egress agents (connect-time checks against a real server on loopback)', () => {
  let server: http.Server;
  let port: number;
  const hits: { host?: string; body: string }[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        hits.push({ host: req.headers.host, body });
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  beforeEach(() => hits.splice(0));

  it('refuses an IP literal on loopback before connecting', async () => {
    const agents = egressAgents(new EgressPolicy());
    const err = await egressPost(`http://127.0.0.1:${port}/hook`, '{}', { agents, timeoutMs: 5_000 }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(EgressRefusedError);
    expect(hits).toHaveLength(0);
  });

  it('refuses a name that resolves to loopback', async () => {
    const agents = egressAgents(new EgressPolicy());
    await expect(egressPost(`http://localhost:${port}/hook`, '{}', { agents, timeoutMs: 5_000 })).rejects.toBeInstanceOf(EgressRefusedError);
    expect(hits).toHaveLength(0);
  });

  it('connects when the operator allows the block', async () => {
    const agents = egressAgents(new EgressPolicy({ allowedCidrs: ['127.0.0.1/32'] }));
    await expect(egressPost(`http://127.0.0.1:${port}/hook`, '{"a":1}', { agents, timeoutMs: 5_000 })).resolves.toBe(200);
    expect(hits).toEqual([{ host: `127.0.0.1:${port}`, body: '{"a":1}' }]);
  });

  it('refuses at connect time a name that answered a public address at the check and a private one at the connect (DNS rebinding)', async () => {
    const answers: ResolvedAddress[][] = [[{ address: '93.184.216.34', family: 4 }], [{ address: '127.0.0.1', family: 4 }]];
    const lookups: string[] = [];
    const policy = new EgressPolicy({
      resolver: async (host) => {
        lookups.push(host);
        return answers.shift() ?? [];
      },
    });
    // The API-time check sees the public answer and passes...
    await expect(policy.checkUrl(`http://rebind.example:${port}/hook`)).resolves.toBeUndefined();
    // ...the connection resolves again, gets loopback, and is refused before any socket opens.
    const err = await egressPost(`http://rebind.example:${port}/hook`, '{}', { agents: egressAgents(policy), timeoutMs: 5_000 }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(EgressRefusedError);
    expect((err as Error).message).toContain('rebind.example leads to a loopback address (127.0.0.0/8)');
    expect(lookups).toEqual(['rebind.example', 'rebind.example']);
    expect(hits).toHaveLength(0);
  });

  it('connects to the very address it checked (an allowed host name resolved once)', async () => {
    const policy = new EgressPolicy({ allowedHosts: ['minio.internal'], resolver: async () => [{ address: '127.0.0.1', family: 4 }] });
    await expect(egressPost(`http://minio.internal:${port}/x`, 'hi', { agents: egressAgents(policy), timeoutMs: 5_000 })).resolves.toBe(200);
    expect(hits).toEqual([{ host: `minio.internal:${port}`, body: 'hi' }]);
  });

  it('refuses a name when one of several answers is private, even if a public one comes first', async () => {
    const policy = new EgressPolicy({
      resolver: async () => [
        { address: '93.184.216.34', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ],
    });
    await expect(egressPost(`http://mixed.example:${port}/`, '', { agents: egressAgents(policy), timeoutMs: 5_000 })).rejects.toBeInstanceOf(EgressRefusedError);
    expect(hits).toHaveLength(0);
  });
});
