import type { RequestHandler } from 'express';
import { z } from 'zod';
import { AuthenticationError, NotAllowedError } from '@platform/errors';
import { jsonBody } from '@platform/http-server';
import { route, type DeclaredRoute } from '@platform/openapi';
import {
  browserSessionJson,
  csrfTokenOf,
  listWorkspaces,
  selectSessionWorkspace,
  signIn,
  signOut,
  type Authenticator,
  type Caller,
  type IdentityStore,
} from '@platform/gateway-identity';
import { authenticate, authenticateRequest, callerOf, isSameOrigin } from './authenticate.middleware';
import { browserSessionResponse } from './responses.schema';
import { clearSessionCookies, sessionTokenOf, setSessionCookies } from './session-cookies';

const signInBody = z.object({
  api_key: z.string().trim().min(1).max(200),
  workspace_id: z.string().uuid().optional(),
});
const pickBody = z.object({ workspace_id: z.string().uuid() });

export interface BrowserSessionOptions {
  /** How long a session lasts from sign-in. */
  ttlMs: number;
}

// A login form posted from another site would sign the browser into the attacker's key.
const sameOriginOnly: RequestHandler = (req, _res, next) => {
  if (!isSameOrigin(req)) throw new NotAllowedError('Cross-site request refused');
  next();
};

/**
 * `/api/v1/browser-session`: sign-in with an API key (POST → HttpOnly `SameSite=Strict` session cookie + CSRF
 * cookie), who the browser is (GET), the workspace picker (PATCH), sign-out (DELETE).
 */
export function browserSessionRoutes(store: IdentityStore, authenticator: Authenticator, options: BrowserSessionOptions): DeclaredRoute[] {
  const json = jsonBody();
  const describe = async (caller: Caller, token: string | undefined) =>
    browserSessionJson(caller, await listWorkspaces(store, caller), caller.session && token ? csrfTokenOf(token) : null);
  const path = '/api/v1/browser-session';
  const tags = ['Browser session'];
  const session = { description: 'Who the browser is, its workspaces and its CSRF token', schema: browserSessionResponse };
  return [
    route(
      {
        method: 'post',
        path,
        tags,
        summary: 'Sign in with an API key (sets the session and CSRF cookies; same origin only)',
        public: true,
        before: [json, sameOriginOnly],
        body: signInBody,
        responses: { 201: session, 401: { description: 'Unknown or revoked key' }, 403: { description: 'Cross-site request' } },
      },
      async ({ body }, req, res) => {
        const signed = await signIn(authenticator, store, { apiKey: body.api_key, workspaceId: body.workspace_id, ttlMs: options.ttlMs });
        setSessionCookies(req, res, signed, Math.floor(options.ttlMs / 1000));
        res.status(201).json(await describe(signed.caller, signed.token));
      },
    ),
    route({ method: 'get', path, tags, summary: 'Who the browser (or key) is', responses: { 200: session } }, async (_input, req, res) => {
      const caller = await authenticateRequest(authenticator, req);
      res.json(await describe(caller, sessionTokenOf(req)));
    }),
    route(
      { method: 'patch', path, tags, summary: "Pick the session's workspace", before: [json, authenticate(authenticator)], body: pickBody, responses: { 200: session } },
      async ({ body }, req, res) => {
        const caller = callerOf(res.locals);
        res.json(await describe(await selectSessionWorkspace(authenticator, store, caller, body.workspace_id), sessionTokenOf(req)));
      },
    ),
    route({ method: 'delete', path, tags, summary: 'Sign out (clears the cookies, even of a session that already ended)', public: true, responses: { 204: { description: 'Signed out' } } }, async (_input, req, res) => {
      const caller = await authenticateRequest(authenticator, req).catch((err: unknown) => {
        // A session that already ended signs out all the same: the cookies go.
        if (err instanceof AuthenticationError) return undefined;
        throw err;
      });
      if (caller?.session) await signOut(store, caller);
      clearSessionCookies(req, res);
      res.status(204).end();
    }),
  ];
}
