/** What a token endpoint answered (RFC 6749 §5.1), or its error (§5.2). */
export type TokenResponse =
  | { ok: true; accessToken: string; refreshToken?: string; tokenType?: string; expiresIn?: number; scope?: string }
  | { ok: false; error: string; errorDescription?: string };

/**
 * The authorization-code exchange at the provider's token URL: form-encoded, client credentials in the body
 * (client_secret_post), the PKCE verifier when the flow has one. Accepts JSON or form-encoded answers (GitHub
 * answers form-encoded unless asked for JSON).
 */
export async function exchangeCode(input: {
  tokenUrl: string;
  code: string;
  redirectUri: string;
  clientId: string;
  clientSecret?: string;
  codeVerifier?: string;
  timeoutMs: number;
}): Promise<TokenResponse> {
  const form = new URLSearchParams({ grant_type: 'authorization_code', code: input.code, redirect_uri: input.redirectUri, client_id: input.clientId });
  if (input.clientSecret) form.set('client_secret', input.clientSecret);
  if (input.codeVerifier) form.set('code_verifier', input.codeVerifier);
  let res: Response;
  try {
    res = await fetch(input.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form,
      signal: AbortSignal.timeout(input.timeoutMs),
    });
  } catch (err) {
    return { ok: false, error: 'token_request_failed', errorDescription: `Token endpoint unreachable: ${(err as Error).message}` };
  }
  const text = await res.text();
  let body: Record<string, unknown>;
  try {
    body = (res.headers.get('content-type') ?? '').includes('json') ? (JSON.parse(text) as Record<string, unknown>) : Object.fromEntries(new URLSearchParams(text));
  } catch {
    return { ok: false, error: 'invalid_token_response', errorDescription: `Token endpoint answered ${res.status} with a body that is not JSON` };
  }
  if (typeof body.error === 'string') {
    return { ok: false, error: body.error, errorDescription: typeof body.error_description === 'string' ? body.error_description : undefined };
  }
  if (!res.ok || typeof body.access_token !== 'string') {
    return { ok: false, error: 'invalid_token_response', errorDescription: `Token endpoint answered ${res.status} without an access_token` };
  }
  const expiresIn = Number(body.expires_in);
  return {
    ok: true,
    accessToken: body.access_token,
    refreshToken: typeof body.refresh_token === 'string' ? body.refresh_token : undefined,
    tokenType: typeof body.token_type === 'string' ? body.token_type : undefined,
    expiresIn: Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : undefined,
    scope: typeof body.scope === 'string' ? body.scope : undefined,
  };
}
