import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFakeOAuthProvider, startGitHttpServer, type FakeOAuthProvider, type GitHttpServer } from '@platform/control-plane-testing';
import { startTestPlatform, type TestPlatform } from '../../../tools/dev/test-platform';
import { api, controlPlaneTestEnv, finished, pollRevision, reactAgentRepo, waitFor, type Json } from './control-plane.e2e.testing';

const FRONTEND = 'https://app.example.com/oauth/done';

// OAuth through the gateway against an authorization server on loopback; the callback comes in without an API key,
// as a browser redirect would. The token then opens a private repository for a deployment (integration_id).
describe('OAuth through the gateway (fake provider on loopback)', () => {
  let platform: TestPlatform;
  let call: ReturnType<typeof api>;
  let provider: FakeOAuthProvider;
  const testEnv = controlPlaneTestEnv();

  beforeAll(async () => {
    provider = await startFakeOAuthProvider({ clientId: 'platform-client', clientSecret: 'platform-secret', expiresIn: 3600 });
    // The git server is on 127.0.0.1: allowed as an operator allows an internal git server.
    platform = await startTestPlatform({
      controlPlaneEnv: { ...testEnv.env, OAUTH_CALLBACK_PAGE_URL: FRONTEND, GIT_ALLOWED_URLS: 'file://,http://127.0.0.1:', EGRESS_ALLOWED_CIDRS: '127.0.0.1/32' },
    });
    call = api(platform);
  });

  afterAll(async () => {
    await platform?.stop();
    await provider?.close();
    await testEnv.cleanup();
  });

  const browser = (url: string) => fetch(url, { redirect: 'manual' });

  it('manages providers without ever returning the client secret', async () => {
    const created = await call('POST', '/v2/auth/providers', {
      provider_id: 'fake',
      name: 'Fake provider',
      client_id: 'platform-client',
      client_secret: 'platform-secret',
      auth_url: provider.authUrl,
      token_url: provider.tokenUrl,
      uses_pkce: true,
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ provider_id: 'fake', uses_pkce: true, code_challenge_method: 'S256' });
    expect((await call('POST', '/v2/auth/providers', { ...created.body, client_secret: 'x' })).status).toBe(409);
    expect((await call('POST', '/v2/auth/providers', { provider_id: 'bad' })).status).toBe(422);
    const listed = await call('GET', '/v2/auth/providers');
    expect(listed.body.map((p: Json) => p.provider_id)).toEqual(['fake']);
    expect(JSON.stringify(listed.body)).not.toContain('platform-secret');
    const patched = await call('PATCH', '/v2/auth/providers/fake', { name: 'Fake' });
    expect(patched.body).toMatchObject({ name: 'Fake', uses_pkce: true });
    expect((await call('GET', '/v2/auth/providers/nope')).status).toBe(404);
  });

  it('authorize → callback (no API key) → token stored → wait completed, and the same user gets it again directly', async () => {
    const started = await call('POST', '/v2/auth/authenticate', { user_id: 'alice', provider: 'fake', scopes: ['repo'] });
    expect(started.body).toMatchObject({ status: 'pending', auth_id: expect.any(String), url: expect.stringContaining(provider.authUrl) });
    const authorize = new URL(started.body.url);
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${platform.gatewayUrl}/v2/auth/callback/fake`);
    expect(authorize.searchParams.get('state')).toMatch(new RegExp(`^${started.body.auth_id}\\.`));
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');

    const waiting = call('GET', `/v2/auth/wait/${started.body.auth_id}?timeout=20`);
    const callbackUrl = await provider.consent(started.body.url);
    expect(callbackUrl.startsWith(`${platform.gatewayUrl}/v2/auth/callback/fake?`)).toBe(true);
    const landed = await browser(callbackUrl);
    expect(landed.status).toBe(302);
    expect(landed.headers.get('location')).toBe(`${FRONTEND}?auth_id=${started.body.auth_id}&provider_id=fake&status=completed`);

    const token = provider.issued.at(-1);
    expect((await waiting).body).toEqual({ status: 'completed', token, auth_id: started.body.auth_id });
    expect(provider.tokenRequests.at(-1)).toMatchObject({ client_secret: 'platform-secret', code_verifier: expect.any(String) });
    const stored = await platform.controlPlane.prisma.oAuthToken.findUniqueOrThrow({ where: { id: started.body.auth_id } });
    expect(stored.accessToken).not.toContain(token as string);
    expect((await call('POST', '/v2/auth/authenticate', { user_id: 'alice', provider: 'fake', scopes: ['repo'] })).body).toEqual({
      status: 'completed',
      auth_id: started.body.auth_id,
      token,
    });

    // The state works once: a replayed callback is refused, and so is a made-up one.
    const replay = await browser(callbackUrl);
    expect(replay.status).toBe(400);
    expect(await replay.json()).toEqual({ detail: 'Invalid, expired or already used OAuth state' });
    expect((await browser(`${platform.gatewayUrl}/v2/auth/callback/fake?code=x&state=${randomUUID()}.guess`)).status).toBe(400);
    expect((await browser(`${platform.gatewayUrl}/v2/auth/callback/fake?code=x`)).status).toBe(400);
    // Only the callback is public.
    expect((await fetch(`${platform.gatewayUrl}/v2/auth/wait/${started.body.auth_id}`)).status).toBe(401);
  });

  it('passes a provider error on to the frontend page and to the waiting client', async () => {
    const started = await call('POST', '/v2/auth/authenticate', { user_id: 'bob', provider: 'fake', scopes: [] });
    const landed = await browser(await provider.consent(started.body.url, 'deny'));
    expect(landed.status).toBe(302);
    const location = new URL(landed.headers.get('location') as string);
    expect(Object.fromEntries(location.searchParams)).toEqual({
      auth_id: started.body.auth_id,
      provider_id: 'fake',
      status: 'failed',
      error: 'access_denied',
      error_description: 'The user denied the request',
    });
    expect((await call('GET', `/v2/auth/wait/${started.body.auth_id}?timeout=1`)).body).toEqual({
      status: 'failed',
      auth_id: started.body.auth_id,
      error: 'access_denied',
      error_description: 'The user denied the request',
    });
    expect((await call('GET', `/v2/auth/wait/${randomUUID()}?timeout=0`)).body).toEqual({ status: 'not_found' });
  });

  it('clones a private repository for a deployment with the OAuth token of its integration', async () => {
    const started = await call('POST', '/v2/auth/authenticate', { user_id: 'carol', provider: 'fake', scopes: ['repo'] });
    await browser(await provider.consent(started.body.url));
    const done = await call('GET', `/v2/auth/wait/${started.body.auth_id}?timeout=10`);
    expect(done.body.status).toBe('completed');

    const repo = reactAgentRepo();
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-private-git-'));
    fs.renameSync(repo.dir, path.join(root, 'agent.git'));
    let git: GitHttpServer | undefined;
    try {
      git = await startGitHttpServer(root, { token: done.body.token });
      const refused = await call('POST', '/v2/deployments', {
        name: 'private-agent',
        source: 'github',
        source_config: { repo_url: git.url('agent.git'), integration_id: randomUUID() },
        source_revision_config: { repo_ref: 'main' },
        secrets: [],
      });
      expect(refused.status).toBe(422);
      expect(refused.body.detail[0].loc).toEqual(['body', 'source_config', 'integration_id']);

      const created = await call('POST', '/v2/deployments', {
        name: 'private-agent',
        source: 'github',
        source_config: { repo_url: git.url('agent.git'), integration_id: started.body.auth_id },
        source_revision_config: { repo_ref: 'main' },
        secrets: [],
      });
      expect(created.status).toBe(201);
      const { revision } = await pollRevision(call, created.body.id, created.body.latest_revision_id, finished);
      expect(revision.status).toBe('DEPLOYED');
      expect(git.authorizations).toContain(`Basic ${Buffer.from(`x-access-token:${done.body.token}`).toString('base64')}`);
      expect((await call('DELETE', `/v2/deployments/${created.body.id}`)).status).toBe(204);
      await waitFor(() => call('GET', `/v2/deployments/${created.body.id}`), (r) => r.status === 404, 30_000);
    } finally {
      await git?.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
