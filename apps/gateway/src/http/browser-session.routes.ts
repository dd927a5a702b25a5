import { Router } from 'express';
import { z } from 'zod';
import { AuthenticationError, NotAllowedError } from '@platform/errors';
import { jsonBody, parseRequest } from '@platform/http-server';
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
import { authenticateRequest, isSameOrigin } from './authenticate.middleware';
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

/**
 * `/api/v1/browser-session`: sign-in with an API key (POST → HttpOnly `SameSite=Strict` session cookie + CSRF
 * cookie), who the browser is (GET), the workspace picker (PATCH), sign-out (DELETE).
 */
export function browserSessionRoutes(store: IdentityStore, authenticator: Authenticator, options: BrowserSessionOptions): Router {
  const router = Router();
  const json = jsonBody();
  const describe = async (caller: Caller, token: string | undefined) =>
    browserSessionJson(caller, await listWorkspaces(store, caller), caller.session && token ? csrfTokenOf(token) : null);

  router.post('/browser-session', json, async (req, res) => {
    // A login form posted from another site would sign the browser into the attacker's key.
    if (!isSameOrigin(req)) throw new NotAllowedError('Cross-site request refused');
    const body = parseRequest(signInBody, req.body ?? {});
    const signed = await signIn(authenticator, store, { apiKey: body.api_key, workspaceId: body.workspace_id, ttlMs: options.ttlMs });
    setSessionCookies(req, res, signed, Math.floor(options.ttlMs / 1000));
    res.status(201).json(await describe(signed.caller, signed.token));
  });
  router.get('/browser-session', async (req, res) => {
    const caller = await authenticateRequest(authenticator, req);
    res.json(await describe(caller, sessionTokenOf(req)));
  });
  router.patch('/browser-session', json, async (req, res) => {
    const caller = await authenticateRequest(authenticator, req);
    const body = parseRequest(pickBody, req.body ?? {});
    res.json(await describe(await selectSessionWorkspace(authenticator, store, caller, body.workspace_id), sessionTokenOf(req)));
  });
  router.delete('/browser-session', async (req, res) => {
    const caller = await authenticateRequest(authenticator, req).catch((err: unknown) => {
      // A session that already ended signs out all the same: the cookies go.
      if (err instanceof AuthenticationError) return undefined;
      throw err;
    });
    if (caller?.session) await signOut(store, caller);
    clearSessionCookies(req, res);
    res.status(204).end();
  });
  return router;
}
