import { randomUUID } from 'node:crypto';
import { OAuthRepository, openControlPlaneDatabase, type ControlPlaneDatabase } from '@platform/control-plane-data-access';
import { SecretBox, encryptionKey } from '@platform/control-plane-secrets';
// eslint-disable-next-line @nx/enforce-module-boundaries -- test-only servers and fixtures, in a spec
import { startFakeOAuthProvider, type FakeOAuthProvider } from '@platform/control-plane-testing';
import { ConflictError, InputError, NotFoundError } from '@platform/errors';
import { authenticate } from './authenticate.usecase';
import { callbackResponse, handleCallback } from './callback.usecase';
import type { OAuthContext } from './oauth-context';
import { providerJson } from './oauth.types';
import { createProvider } from './create-provider.usecase';
import { deleteProvider } from './delete-provider.usecase';
import { getProvider } from './get-provider.usecase';
import { listProviders } from './list-providers.usecase';
import { updateProvider } from './update-provider.usecase';
import { integrationToken, waitForAuth } from './wait.usecase';

const callbackParams = (location: string) => {
  const url = new URL(location);
  const q = url.searchParams;
  return {
    providerId: decodeURIComponent(url.pathname.split('/').at(-1) as string),
    code: q.get('code') ?? undefined,
    state: q.get('state') ?? undefined,
    error: q.get('error') ?? undefined,
    errorDescription: q.get('error_description') ?? undefined,
  };
};

describe('OAuth (in-memory PGlite, fake provider on loopback)', () => {
  let db: ControlPlaneDatabase;
  let ctx: OAuthContext;
  let provider: FakeOAuthProvider;
  let now = new Date();

  beforeAll(async () => {
    db = await openControlPlaneDatabase({ dataDir: 'memory://' });
    await db.migrate();
    provider = await startFakeOAuthProvider({ clientId: 'client-1', clientSecret: 'secret-1', expiresIn: 3600 });
    ctx = {
      store: new OAuthRepository(db.prisma),
      box: new SecretBox(encryptionKey('oauth-spec-encryption-key')),
      publicUrl: 'https://platform.example.com/',
      flowTtlMs: 600_000,
      now: () => now,
    };
  });
  afterAll(async () => {
    await provider?.close();
    await db?.close();
  });
  beforeEach(() => {
    now = new Date();
  });

  const addProvider = (tenantId: string, extra: { usesPkce?: boolean; providerId?: string; tokenUrl?: string; clientSecret?: string } = {}) =>
    createProvider(ctx, tenantId, {
      providerId: extra.providerId ?? 'fake',
      name: 'Fake',
      clientId: 'client-1',
      clientSecret: extra.clientSecret ?? 'secret-1',
      authUrl: provider.authUrl,
      tokenUrl: extra.tokenUrl ?? provider.tokenUrl,
      usesPkce: extra.usesPkce,
    });

  it('manages providers per workspace and never shows the client secret', async () => {
    const tenant = randomUUID();
    const created = await addProvider(tenant, { usesPkce: true });
    expect(providerJson(created)).toMatchObject({ provider_id: 'fake', uses_pkce: true, code_challenge_method: 'S256', client_id: 'client-1' });
    expect(JSON.stringify(providerJson(created))).not.toContain('secret-1');
    expect(created.clientSecret).not.toContain('secret-1');
    await expect(addProvider(tenant)).rejects.toThrow(ConflictError);
    expect((await listProviders(ctx, tenant)).map((p) => p.providerId)).toEqual(['fake']);
    expect(await listProviders(ctx, randomUUID())).toEqual([]);
    const updated = await updateProvider(ctx, tenant, 'fake', { name: 'Renamed', usesPkce: false, codeChallengeMethod: null });
    expect(updated).toMatchObject({ name: 'Renamed', usesPkce: false, codeChallengeMethod: null });
    await deleteProvider(ctx, tenant, 'fake');
    await expect(getProvider(ctx, tenant, 'fake')).rejects.toThrow(NotFoundError);
    await expect(deleteProvider(ctx, tenant, 'fake')).rejects.toThrow(NotFoundError);
  });

  it('completes the flow with PKCE: authorize URL → callback → token stored encrypted → wait completed', async () => {
    const tenant = randomUUID();
    await addProvider(tenant, { usesPkce: true });
    const started = await authenticate(ctx, tenant, { userId: 'user-1', providerId: 'fake', scopes: ['repo', 'read:user'] });
    if (started.status !== 'pending') throw new Error('expected a pending flow');
    const authorize = new URL(started.url);
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: 'client-1',
      redirect_uri: 'https://platform.example.com/v2/auth/callback/fake',
      scope: 'repo read:user',
      code_challenge_method: 'S256',
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    expect(authorize.searchParams.get('state')?.startsWith(`${started.auth_id}.`)).toBe(true);
    expect(await waitForAuth(ctx, tenant, started.auth_id, 0)).toEqual({ status: 'pending', auth_id: started.auth_id });

    const waiting = waitForAuth(ctx, tenant, started.auth_id, 10_000, 50);
    const outcome = await handleCallback(ctx, callbackParams(await provider.consent(started.url)));
    expect(outcome).toEqual({ status: 'completed', authId: started.auth_id, providerId: 'fake' });
    const token = provider.issued.at(-1) as string;
    expect(await waiting).toEqual({ status: 'completed', token, auth_id: started.auth_id });
    const lastRequest = provider.tokenRequests.at(-1) as Record<string, string>;
    expect(lastRequest).toMatchObject({ grant_type: 'authorization_code', client_id: 'client-1', client_secret: 'secret-1', code_verifier: expect.any(String) });

    const stored = await db.prisma.oAuthToken.findUniqueOrThrow({ where: { id: started.auth_id } });
    expect(stored.accessToken).not.toContain(token);
    expect(stored.refreshToken).not.toBeNull();
    expect(stored.expiresAt?.getTime()).toBeGreaterThan(Date.now());
    expect(await integrationToken(ctx, tenant, started.auth_id)).toBe(token);
    expect(await integrationToken(ctx, randomUUID(), started.auth_id)).toBeNull();
    // Asked again with the same (or fewer) scopes, the user's live token comes back without a new authorization.
    expect(await authenticate(ctx, tenant, { userId: 'user-1', providerId: 'fake', scopes: ['repo'] })).toEqual({ status: 'completed', auth_id: started.auth_id, token });
    expect((await authenticate(ctx, tenant, { userId: 'user-1', providerId: 'fake', scopes: ['admin'] })).status).toBe('pending');
  });

  it('refuses a replayed, forged, malformed or foreign state', async () => {
    const tenant = randomUUID();
    await addProvider(tenant);
    await addProvider(tenant, { providerId: 'other' });
    const started = await authenticate(ctx, tenant, { userId: 'u', providerId: 'fake', scopes: [] });
    if (started.status !== 'pending') throw new Error('expected a pending flow');
    expect(new URL(started.url).searchParams.has('code_challenge')).toBe(false);
    const callback = callbackParams(await provider.consent(started.url));

    await expect(handleCallback(ctx, { ...callback, state: undefined })).rejects.toThrow('Missing or malformed OAuth state');
    await expect(handleCallback(ctx, { ...callback, state: 'not-a-state' })).rejects.toThrow(InputError);
    await expect(handleCallback(ctx, { ...callback, state: `${started.auth_id}.forged-nonce` })).rejects.toThrow('Invalid, expired or already used OAuth state');
    await expect(handleCallback(ctx, { ...callback, state: `${randomUUID()}.x` })).rejects.toThrow(InputError);
    await expect(handleCallback(ctx, { ...callback, providerId: 'other' })).rejects.toThrow(InputError);
    expect((await handleCallback(ctx, callback)).status).toBe('completed');
    await expect(handleCallback(ctx, callback)).rejects.toThrow('Invalid, expired or already used OAuth state');
  });

  it('ends the flow as failed on a provider error, a token endpoint error or expiry', async () => {
    const tenant = randomUUID();
    await addProvider(tenant);
    await addProvider(tenant, { providerId: 'badsecret', clientSecret: 'wrong' });

    const denied = await authenticate(ctx, tenant, { userId: 'u', providerId: 'fake', scopes: [] });
    if (denied.status !== 'pending') throw new Error('expected a pending flow');
    const deniedOutcome = await handleCallback(ctx, callbackParams(await provider.consent(denied.url, 'deny')));
    expect(deniedOutcome).toEqual({ status: 'failed', authId: denied.auth_id, providerId: 'fake', error: 'access_denied', errorDescription: 'The user denied the request' });
    expect(await waitForAuth(ctx, tenant, denied.auth_id, 1_000)).toEqual({
      status: 'failed',
      auth_id: denied.auth_id,
      error: 'access_denied',
      error_description: 'The user denied the request',
    });

    const refused = await authenticate(ctx, tenant, { userId: 'u', providerId: 'badsecret', scopes: [] });
    if (refused.status !== 'pending') throw new Error('expected a pending flow');
    const refusedOutcome = await handleCallback(ctx, callbackParams(await provider.consent(refused.url)));
    expect(refusedOutcome).toMatchObject({ status: 'failed', error: 'invalid_client' });

    const late = await authenticate(ctx, tenant, { userId: 'v', providerId: 'fake', scopes: [] });
    if (late.status !== 'pending') throw new Error('expected a pending flow');
    const lateCallback = callbackParams(await provider.consent(late.url));
    now = new Date(Date.now() + 11 * 60_000);
    await expect(handleCallback(ctx, lateCallback)).rejects.toThrow('Invalid, expired or already used OAuth state');
    expect(await waitForAuth(ctx, tenant, late.auth_id, 0)).toMatchObject({ status: 'failed', error: 'expired' });
  });

  it('times out a pending wait, and knows no flow of another workspace', async () => {
    const tenant = randomUUID();
    await addProvider(tenant);
    const started = await authenticate(ctx, tenant, { userId: 'u', providerId: 'fake', scopes: [] });
    expect(await waitForAuth(ctx, tenant, started.auth_id, 300, 50)).toEqual({ status: 'timeout', auth_id: started.auth_id });
    expect(await waitForAuth(ctx, randomUUID(), started.auth_id, 0)).toEqual({ status: 'not_found' });
    expect(await waitForAuth(ctx, tenant, 'nope', 0)).toEqual({ status: 'not_found' });
  });

  it('takes a form-encoded token answer, and redirects to the frontend page when one is configured', async () => {
    const formProvider = await startFakeOAuthProvider({ clientId: 'client-1', formEncoded: true });
    try {
      const tenant = randomUUID();
      await createProvider(ctx, tenant, { providerId: 'gh', name: 'GH', clientId: 'client-1', authUrl: formProvider.authUrl, tokenUrl: formProvider.tokenUrl });
      const started = await authenticate(ctx, tenant, { userId: 'u', providerId: 'gh', scopes: [] });
      if (started.status !== 'pending') throw new Error('expected a pending flow');
      const outcome = await handleCallback(ctx, callbackParams(await formProvider.consent(started.url)));
      expect(outcome.status).toBe('completed');
      expect(await integrationToken(ctx, tenant, started.auth_id)).toBe(formProvider.issued[0]);
      const response = callbackResponse({ ...ctx, frontendCallbackUrl: 'https://app.example.com/oauth/done?x=1' }, outcome);
      expect(response).toEqual({ redirect: `https://app.example.com/oauth/done?x=1&auth_id=${started.auth_id}&provider_id=gh&status=completed` });
      expect(callbackResponse(ctx, outcome)).toEqual({ json: { auth_id: started.auth_id, provider_id: 'gh', status: 'completed' } });
    } finally {
      await formProvider.close();
    }
  });
});
