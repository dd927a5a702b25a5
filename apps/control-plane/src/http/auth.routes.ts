import { z } from 'zod';
import { tenantOf } from '@platform/http-server';
import { route, type DeclaredRoute } from '@platform/openapi';
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
import { authenticateResponse, callbackJsonResponse, providerDeletedResponse, providerResponse, waitResponse } from './responses.schema';

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

const tags = ['OAuth'];
const providerPath = z.object({ providerId: z.string() });
const provider = { 200: { description: 'The provider (never its client secret)', schema: providerResponse } };
const noProvider = { 404: { description: 'No such provider' } };

/** `/v2/auth`: OAuth providers, the authorization flow, and the browser's callback (public: its state authenticates it). */
export function authRoutes(ctx: OAuthContext): DeclaredRoute[] {
  return [
    route(
      { method: 'get', path: '/v2/auth/providers', summary: 'List OAuth providers', tags, responses: { 200: { description: 'The providers', schema: z.array(providerResponse) } } },
      async (_input, _req, res) => {
        res.json((await listProviders(ctx, tenantOf(res))).map(providerJson));
      },
    ),
    route(
      { method: 'post', path: '/v2/auth/providers', summary: 'Create an OAuth provider', tags, body: providerBody, responses: { ...provider, 409: { description: 'A provider with that id exists' } } },
      async ({ body }, _req, res) => {
        const created = await createProvider(ctx, tenantOf(res), {
          providerId: body.provider_id,
          name: body.name,
          clientId: body.client_id,
          clientSecret: body.client_secret,
          authUrl: body.auth_url,
          tokenUrl: body.token_url,
          usesPkce: body.uses_pkce ?? false,
          codeChallengeMethod: body.code_challenge_method,
        });
        res.json(providerJson(created));
      },
    ),
    route(
      { method: 'get', path: '/v2/auth/providers/:providerId', summary: 'Get an OAuth provider', tags, params: providerPath, responses: { ...provider, ...noProvider } },
      async ({ params }, _req, res) => {
        res.json(providerJson(await getProvider(ctx, tenantOf(res), params.providerId)));
      },
    ),
    route(
      {
        method: 'patch',
        path: '/v2/auth/providers/:providerId',
        summary: 'Change an OAuth provider',
        tags,
        params: providerPath,
        body: providerPatch,
        responses: { ...provider, ...noProvider },
      },
      async ({ params, body }, _req, res) => {
        const updated = await updateProvider(ctx, tenantOf(res), params.providerId, {
          name: body.name,
          clientId: body.client_id,
          clientSecret: body.client_secret,
          authUrl: body.auth_url,
          tokenUrl: body.token_url,
          usesPkce: body.uses_pkce ?? undefined,
          codeChallengeMethod: body.code_challenge_method,
        });
        res.json(providerJson(updated));
      },
    ),
    route(
      {
        method: 'delete',
        path: '/v2/auth/providers/:providerId',
        summary: 'Delete an OAuth provider',
        tags,
        params: providerPath,
        responses: { 200: { description: 'Deleted', schema: providerDeletedResponse }, ...noProvider },
      },
      async ({ params }, _req, res) => {
        await deleteProvider(ctx, tenantOf(res), params.providerId);
        res.json({ provider_id: params.providerId, deleted: true });
      },
    ),
    route(
      {
        method: 'post',
        path: '/v2/auth/authenticate',
        summary: "A user's token for a provider, or the URL where the user authorizes",
        tags,
        body: authenticateBody,
        responses: { 200: { description: 'The token (completed) or the authorization URL (pending)', schema: authenticateResponse } },
      },
      async ({ body }, _req, res) => {
        res.json(await authenticate(ctx, tenantOf(res), { userId: body.user_id, providerId: body.provider, scopes: body.scopes }));
      },
    ),
    route(
      {
        method: 'get',
        path: '/v2/auth/wait/:authId',
        summary: 'Wait (up to `timeout` seconds) for an authorization to finish',
        tags,
        params: z.object({ authId: z.string() }),
        query: waitQuery,
        responses: { 200: { description: 'Where the authorization stands', schema: waitResponse } },
      },
      async ({ params, query }, _req, res) => {
        res.json(await waitForAuth(ctx, tenantOf(res), params.authId, query.timeout * 1000));
      },
    ),
    route(
      {
        method: 'get',
        path: '/v2/auth/callback/:providerId',
        summary: "The provider's redirect back (public: the state authenticates it)",
        tags,
        public: true,
        params: providerPath,
        query: callbackQuery,
        responses: {
          200: { description: 'The outcome, when no frontend callback page is configured', schema: callbackJsonResponse },
          302: { description: 'To the frontend callback page, with the outcome in its query' },
        },
      },
      async ({ params, query }, _req, res) => {
        const outcome = await handleCallback(ctx, {
          providerId: params.providerId,
          code: query.code,
          state: query.state,
          error: query.error,
          errorDescription: query.error_description,
        });
        const response = callbackResponse(ctx, outcome);
        if ('redirect' in response) res.redirect(302, response.redirect);
        else res.json(response.json);
      },
    ),
  ];
}
