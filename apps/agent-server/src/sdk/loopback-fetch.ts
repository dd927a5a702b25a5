import { randomUUID } from 'node:crypto';
import { signIdentity, type Identity } from '@platform/identity';
import { REQUEST_ID_HEADER } from '@platform/http-server';

// An SDK `Client` made without `apiUrl` sends its requests through the fetch the server puts here (the reference
// binds its Hono app's `request`), so a graph or a custom route reaches the deployment it runs in.
const LOOPBACK_FETCH = Symbol.for('langgraph_api:fetch');

/** Who a request of the deployment to itself is, to this server's gateway check. */
export const LOOPBACK_IDENTITY: Identity = { tenantId: 'deployment', organizationId: 'deployment', subject: 'loopback' };

export interface LoopbackFetch {
  fetch: typeof fetch;
  /** Where the server listens (its URL once bound, with `http.mount_prefix`); until then a loopback request fails. */
  bind(url: string): void;
}

// A server bound to every interface is reached on the loopback one.
function reachable(url: string): string {
  const parsed = new URL(url);
  if (parsed.hostname === '0.0.0.0' || parsed.hostname === '[::]') parsed.hostname = '127.0.0.1';
  return `${parsed.origin}${parsed.pathname.replace(/\/$/, '')}`;
}

/**
 * A fetch to this server whatever the origin asked (the SDK's default `http://localhost:8123`): the path and query
 * go to where the server listens, signed as the gateway signs (LOOPBACK_IDENTITY, this deployment), so the request
 * takes the same way as any other, the deployment's own auth included.
 */
export function createLoopbackFetch(options: { secret: string; deploymentId?: string }): LoopbackFetch {
  let origin: string | undefined;
  const loopback = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    if (!origin) throw new Error('The agent server is not listening yet: a Client without apiUrl works once the server has started');
    const request = new Request(input, init);
    const { pathname, search } = new URL(request.url);
    const requestId = randomUUID();
    const headers = new Headers(request.headers);
    headers.set(REQUEST_ID_HEADER, requestId);
    for (const [name, value] of Object.entries(signIdentity(options.secret, LOOPBACK_IDENTITY, requestId, { deploymentId: options.deploymentId }))) {
      headers.set(name, value);
    }
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && request.body !== null;
    return fetch(`${origin}${pathname}${search}`, {
      method: request.method,
      headers,
      body: hasBody ? await request.arrayBuffer() : undefined,
      signal: request.signal,
      redirect: 'manual',
    });
  };
  return { fetch: loopback as typeof fetch, bind: (url) => (origin = reachable(url)) };
}

/** Makes an SDK `Client` without `apiUrl` use `loopback`. */
export function registerLoopbackFetch(loopback: LoopbackFetch): void {
  (globalThis as Record<symbol, unknown>)[LOOPBACK_FETCH] = loopback.fetch;
}
