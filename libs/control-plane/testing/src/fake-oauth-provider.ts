import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

interface Grant {
  clientId: string;
  redirectUri: string;
  challenge?: string;
  method?: string;
  scope?: string;
  used: boolean;
}

export interface FakeOAuthProviderOptions {
  clientId: string;
  clientSecret?: string;
  /** Answer the token request form-encoded (as GitHub does without `Accept: application/json`). */
  formEncoded?: boolean;
  expiresIn?: number;
}

export interface FakeOAuthProvider {
  authUrl: string;
  tokenUrl: string;
  /** Token requests received, as parsed forms. */
  tokenRequests: Record<string, string>[];
  /** Tokens issued, newest last. */
  issued: string[];
  /**
   * What a browser does at the authorize URL after the user consents (or refuses): the provider's redirect back,
   * i.e. the callback URL with `code` and `state` (or `error`).
   */
  consent(authorizeUrl: string, decision?: 'allow' | 'deny'): Promise<string>;
  close(): Promise<void>;
}

/**
 * An OAuth 2.0 authorization server on loopback with the parts a client touches: the authorize endpoint (which
 * redirects back with a one-time code) and the token endpoint (authorization_code grant with client
 * authentication and PKCE verification, RFC 6749 / 7636 error responses).
 */
export async function startFakeOAuthProvider(options: FakeOAuthProviderOptions): Promise<FakeOAuthProvider> {
  const grants = new Map<string, Grant>();
  const tokenRequests: Record<string, string>[] = [];
  const issued: string[] = [];

  const tokenError = (res: http.ServerResponse, status: number, error: string, description: string) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error, error_description: description }));
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'GET' && url.pathname === '/authorize') {
      const q = url.searchParams;
      const redirect = new URL(q.get('redirect_uri') ?? 'http://invalid');
      if (q.get('client_id') !== options.clientId || q.get('response_type') !== 'code') {
        res.writeHead(400).end('bad authorize request');
        return;
      }
      if (q.get('decision') === 'deny') {
        redirect.searchParams.set('error', 'access_denied');
        redirect.searchParams.set('error_description', 'The user denied the request');
      } else {
        const code = randomBytes(12).toString('hex');
        grants.set(code, {
          clientId: options.clientId,
          redirectUri: q.get('redirect_uri') ?? '',
          challenge: q.get('code_challenge') ?? undefined,
          method: q.get('code_challenge_method') ?? undefined,
          scope: q.get('scope') ?? undefined,
          used: false,
        });
        redirect.searchParams.set('code', code);
      }
      const state = q.get('state');
      if (state) redirect.searchParams.set('state', state);
      res.writeHead(302, { location: redirect.toString() }).end();
      return;
    }
    if (req.method === 'POST' && url.pathname === '/token') {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const form = Object.fromEntries(new URLSearchParams(body));
        tokenRequests.push(form);
        const grant = grants.get(form.code ?? '');
        if (form.grant_type !== 'authorization_code') return tokenError(res, 400, 'unsupported_grant_type', 'only authorization_code');
        if (form.client_id !== options.clientId || (options.clientSecret && form.client_secret !== options.clientSecret)) {
          return tokenError(res, 401, 'invalid_client', 'client authentication failed');
        }
        if (!grant || grant.used || grant.redirectUri !== form.redirect_uri) return tokenError(res, 400, 'invalid_grant', 'unknown, used or mismatched code');
        if (grant.challenge) {
          const verifier = form.code_verifier ?? '';
          const computed = grant.method === 'plain' ? verifier : createHash('sha256').update(verifier).digest('base64url');
          if (computed !== grant.challenge) return tokenError(res, 400, 'invalid_grant', 'PKCE verification failed');
        }
        grant.used = true;
        const token = `tok_${randomBytes(12).toString('hex')}`;
        issued.push(token);
        const answer: Record<string, string> = { access_token: token, token_type: 'bearer', scope: grant.scope ?? '' };
        if (options.expiresIn) answer.expires_in = String(options.expiresIn);
        answer.refresh_token = `ref_${randomBytes(8).toString('hex')}`;
        if (options.formEncoded) {
          res.writeHead(200, { 'content-type': 'application/x-www-form-urlencoded' });
          res.end(new URLSearchParams(answer).toString());
        } else {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ ...answer, ...(options.expiresIn ? { expires_in: options.expiresIn } : {}) }));
        }
      });
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    authUrl: `${base}/authorize`,
    tokenUrl: `${base}/token`,
    tokenRequests,
    issued,
    async consent(authorizeUrl, decision = 'allow') {
      const url = new URL(authorizeUrl);
      if (decision === 'deny') url.searchParams.set('decision', 'deny');
      const res = await fetch(url, { redirect: 'manual' });
      const location = res.headers.get('location');
      if (res.status !== 302 || !location) throw new Error(`authorize answered ${res.status}`);
      return location;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
