import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@langchain/langgraph-sdk';
import { startTestAgentServer, type TestAgentServer } from '../agent-server.testing';

const FIXTURES = path.resolve(__dirname, '../../../e2e/fixtures');

/**
 * The whole agent server serving a langgraph.json with `auth` (e2e/fixtures/auth.ts: Bearer tokens, owner filters),
 * on a database of its own (Postgres with DATABASE_URL, else PGlite), with gateway-signed headers. The end-to-end
 * suite goes through every resource, through the gateway, on Postgres.
 */
describe("the deployment's own auth (langgraph.json auth.path), one server", () => {
  let running: TestAgentServer;
  const as = (token?: string) =>
    new Client({
      apiUrl: running.server.url,
      apiKey: null,
      defaultHeaders: { ...running.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      callerOptions: { maxRetries: 0 },
    });

  beforeAll(async () => {
    running = await startTestAgentServer({ langgraphConfigPath: path.join(FIXTURES, 'auth-langgraph.json') });
  });
  afterAll(() => running?.stop());

  it("refuses a request its authenticate refuses, with the exception's status, message and headers", async () => {
    await expect(as().threads.search()).rejects.toMatchObject({ status: 401 });
    const res = await fetch(`${running.server.url}/threads`, { method: 'POST', headers: { ...running.headers, 'content-type': 'application/json' }, body: '{}' });
    expect({ status: res.status, challenge: res.headers.get('www-authenticate'), body: await res.json() }).toEqual({
      status: 401,
      challenge: 'Bearer',
      body: { detail: 'Invalid or missing token' },
    });
    expect((await fetch(`${running.server.url}/info`, { headers: running.headers })).status).toBe(200);
  });

  it('stamps and filters by owner, refuses what a handler refuses, and hands the caller to the graph', async () => {
    const [alice, bob, carol] = [as('token-alice'), as('token-bob'), as('token-carol')];
    const thread = await alice.threads.create({ metadata: { topic: 'x' } });
    expect(thread.metadata).toEqual({ topic: 'x', owner: 'alice' });
    await expect(bob.threads.get(thread.thread_id)).rejects.toMatchObject({ status: 404 });
    await expect(bob.runs.wait(thread.thread_id, 'whoami', { input: {} })).rejects.toMatchObject({ status: 404 });
    expect(await alice.runs.wait(thread.thread_id, 'whoami', { input: {} })).toMatchObject({
      who: { user: { identity: 'alice', team: 'red', is_authenticated: true }, user_id: 'alice', permissions: ['read', 'write', 'delete'] },
    });
    await expect(carol.threads.delete((await carol.threads.create()).thread_id)).rejects.toMatchObject({ status: 403 });
  });

  it('does not start when the auth module fails to import', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'auth-broken-'));
    try {
      const failing = path.resolve(__dirname, '../../../../../libs/agent-server/auth/src/testing/failing-auth.ts');
      const config = { graphs: { slow: `${path.join(FIXTURES, 'test-graphs.ts')}:slow` }, auth: { path: `${failing}:auth` } };
      writeFileSync(path.join(dir, 'langgraph.json'), JSON.stringify(config));
      await expect(startTestAgentServer({ langgraphConfigPath: path.join(dir, 'langgraph.json') })).rejects.toThrow(
        /auth\.path: cannot load .*failing-auth\.ts: AUTH_SECRET is not set/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
