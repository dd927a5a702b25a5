import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { EgressPolicy } from '@platform/egress';
import { BuildError } from './build-error';
import { gitCheckout } from './git-checkout';

// Issue 38: an http(s) repo_url was an SSRF route (a clone of https://10.0.0.1/... reached it, and git's error in the
// build log told a port scanner what answered). The host is checked with the control plane's egress policy, git
// connects to the address checked, and an unreachable remote reads "could not be reached".
describe('gitCheckout of an http(s) repository under an egress policy', () => {
  let server: http.Server;
  let port: number;
  const requests: string[] = [];
  let dir: string;
  const logged: string[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      requests.push(`${req.headers.host} ${req.url}`);
      res.statusCode = 404;
      res.end('internal service');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'git-checkout-egress-'));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    requests.length = 0;
    logged.length = 0;
  });

  const checkout = (repoUrl: string, egress: EgressPolicy) =>
    gitCheckout({ repoUrl, ref: 'main', dir: path.join(dir, 'checkout'), signal: new AbortController().signal, timeoutMs: 30_000, egress, log: (t) => logged.push(t) });
  const failure = async (promise: Promise<unknown>): Promise<string> => {
    const err = await promise.then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(BuildError);
    return (err as Error).message;
  };

  it('refuses a private or loopback address, by literal or by name, naming the rule and connecting nowhere', async () => {
    const strict = new EgressPolicy({ resolver: async () => [{ address: '127.0.0.1', family: 4 }] });
    for (const url of [`http://127.0.0.1:${port}/repo.git`, `https://10.0.0.1/repo.git`, `http://repo.example:${port}/repo.git`]) {
      const message = await failure(checkout(url, strict));
      expect(message).toMatch(/^Fetching from https?:\/\/[^ ]+ refused: .* leads to a (loopback|private) address .*\(EGRESS_ALLOWED_CIDRS, EGRESS_ALLOWED_HOSTS\)$/);
    }
    expect(requests).toEqual([]);
  });

  it('connects to the address checked (the name is pinned), not to what DNS answers later', async () => {
    // `repo.invalid` resolves nowhere for git itself: only the pinned, checked address takes it to the server.
    const allowed = new EgressPolicy({ allowedCidrs: ['127.0.0.1/32'], resolver: async () => [{ address: '127.0.0.1', family: 4 }] });
    const message = await failure(checkout(`http://repo.invalid:${port}/repo.git`, allowed));
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.every((r) => r.startsWith(`repo.invalid:${port} /repo.git/`))).toBe(true);
    expect(message).toMatch(/^Fetching main from http:\/\/repo\.invalid:\d+ failed: /);
    expect(message).not.toContain('internal service');
  });

  it('says only "could not be reached" for a remote it cannot connect to, in the error and the log', async () => {
    const allowed = new EgressPolicy({ allowedCidrs: ['127.0.0.1/32'] });
    const closed = await new Promise<number>((resolve) => {
      const s = http.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const message = await failure(checkout(`http://127.0.0.1:${closed}/repo.git`, allowed));
    expect(message).toBe(`Fetching main from http://127.0.0.1:${closed} failed: the repository could not be reached`);
    expect(logged.join('')).not.toMatch(/refused|connect/i);
    const unresolved = await failure(checkout('https://nothing.invalid/repo.git', new EgressPolicy({ resolver: async () => [] })));
    expect(unresolved).toBe('Fetching from https://nothing.invalid failed: the repository could not be reached');
  });
});
