import { Router } from 'express';
import { z } from 'zod';
import { parseRequest, tenantOf } from '@platform/http-server';
import {
  authenticate,
  callbackResponse,
  createProvider,
  deleteProvider,
  getProvider,
  handleCallback,
  listProviders,
  providerJson,
  updateProvider,
  waitForAuth,
  type OAuthContext,
} from '@platform/control-plane-oauth';

const httpUrl = z.string().url().refine((v) => /^https?:/.test(v), 'must be an http(s) URL');
const providerId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/, 'must be 1-63 letters, digits, ".", "_" or "-"');

const providerBody = z.object({
  provider_id: providerId,
  name: z.string().min(1).max(200),
  client_id: z.string().min(1).max(500),
  client_secret: z.string().max(2000).nullish(),
  auth_url: httpUrl,
  token_url: httpUrl,
  uses_pkce: z.boolean().nullish(),
  code_challenge_method: z.enum(['S256', 'plain']).nullish(),
});

const providerPatch = providerBody.omit({ provider_id: true }).partial();

const authenticateBody = z.object({
  user_id: z.string().min(1).max(500),
  provider: providerId,
  scopes: z.array(z.string().min(1).max(500)).max(100).default([]),
});

const waitQuery = z.object({ timeout: z.coerce.number().min(0).max(600).default(30) });

const callbackQuery = z.object({
  code: z.string().max(4000).optional(),
  state: z.string().max(1000).optional(),
  error: z.string().max(500).optional(),
  error_description: z.string().max(2000).optional(),
});

/** `/v2/auth`: OAuth providers, the authorization flow, and the browser's callback (public: its state authenticates it). */
export function authRoutes(ctx: OAuthContext): Router {
  const router = Router();
  router.get('/auth/providers', async (_req, res) => {
    res.json((await listProviders(ctx, tenantOf(res))).map(providerJson));
  });
  router.post('/auth/providers', async (req, res) => {
    const body = parseRequest(providerBody, req.body ?? {});
    const provider = await createProvider(ctx, tenantOf(res), {
      providerId: body.provider_id,
      name: body.name,
      clientId: body.client_id,
      clientSecret: body.client_secret,
      authUrl: body.auth_url,
      tokenUrl: body.token_url,
      usesPkce: body.uses_pkce ?? false,
      codeChallengeMethod: body.code_challenge_method,
    });
    res.json(providerJson(provider));
  });
  router.get('/auth/providers/:providerId', async (req, res) => {
    res.json(providerJson(await getProvider(ctx, tenantOf(res), req.params.providerId)));
  });
  router.patch('/auth/providers/:providerId', async (req, res) => {
    const body = parseRequest(providerPatch, req.body ?? {});
    const provider = await updateProvider(ctx, tenantOf(res), req.params.providerId, {
      name: body.name,
      clientId: body.client_id,
      clientSecret: body.client_secret,
      authUrl: body.auth_url,
      tokenUrl: body.token_url,
      usesPkce: body.uses_pkce ?? undefined,
      codeChallengeMethod: body.code_challenge_method,
    });
    res.json(providerJson(provider));
  });
  router.delete('/auth/providers/:providerId', async (req, res) => {
    await deleteProvider(ctx, tenantOf(res), req.params.providerId);
    res.json({ provider_id: req.params.providerId, deleted: true });
  });

  router.post('/auth/authenticate', async (req, res) => {
    const body = parseRequest(authenticateBody, req.body ?? {});
    res.json(await authenticate(ctx, tenantOf(res), { userId: body.user_id, providerId: body.provider, scopes: body.scopes }));
  });
  router.get('/auth/wait/:authId', async (req, res) => {
    const query = parseRequest(waitQuery, req.query, 'query');
    res.json(await waitForAuth(ctx, tenantOf(res), req.params.authId, query.timeout * 1000));
  });
  router.get('/auth/callback/:providerId', async (req, res) => {
    const query = parseRequest(callbackQuery, req.query, 'query');
    const outcome = await handleCallback(ctx, {
      providerId: req.params.providerId,
      code: query.code,
      state: query.state,
      error: query.error,
      errorDescription: query.error_description,
    });
    const response = callbackResponse(ctx, outcome);
    if ('redirect' in response) res.redirect(302, response.redirect);
    else res.json(response.json);
  });
  return router;
}
