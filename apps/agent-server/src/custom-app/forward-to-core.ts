import { request as httpRequest, type IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { HttpBindings } from '@hono/node-server';
import type { Response as ExpressResponse } from 'express';
import type { Access } from '@platform/agent-server-auth';
import { CALLER_HEADER, type CallerHandoff } from './caller-handoff';
import type { CustomAppContext } from './load-custom-app';

// Headers of one connection, not of the request (the body is sent again, with its own length).
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'content-length', CALLER_HEADER]);
const NULL_BODY = new Set([101, 204, 205, 304]);

type Body = Buffer | ReadableStream<Uint8Array> | undefined;

function send(url: string, init: { method: string; headers: Record<string, string>; body: Body; signal: AbortSignal }): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: init.method, headers: init.headers, signal: init.signal }, resolve);
    request.on('error', reject);
    if (init.body instanceof ReadableStream) Readable.fromWeb(init.body as import('node:stream/web').ReadableStream).on('error', reject).pipe(request);
    else request.end(init.body);
  });
}

// The body as the app's middleware left it: unread, it streams on (chunked; the core enforces its size limit); read
// already (Hono caches what it read), the cached bytes with their length.
async function bodyOf(c: CustomAppContext, headers: Record<string, string>): Promise<Body> {
  const request = c.req.raw;
  if (request.method === 'GET' || request.method === 'HEAD') return undefined;
  if (!request.bodyUsed && request.body) {
    // Node sends a DELETE's (or OPTIONS') body unframed unless told to chunk it.
    headers['transfer-encoding'] = 'chunked';
    return request.body;
  }
  if (!request.bodyUsed) return undefined;
  const body = Buffer.from(await c.req.arrayBuffer());
  headers['content-length'] = String(body.byteLength);
  return body;
}

function responseOf(answer: IncomingMessage, method: string): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const status = answer.statusCode ?? 502;
  const empty = NULL_BODY.has(status) || method === 'HEAD';
  if (empty) answer.resume();
  // Streams (SSE) come back as the core writes them.
  const body = empty ? null : (Readable.toWeb(answer) as ReadableStream<Uint8Array>);
  return new Response(body, { status, statusText: answer.statusMessage, headers });
}

/**
 * The handler behind the project's routes: the request as the app's middleware left it (it may have rewritten the
 * body or headers; its Host is kept, so links the core hands out name the host the client called) goes to the core
 * routes, and their answer comes back through the middleware (which may add headers). The caller the front
 * authenticated goes with it (`handoff`).
 */
export function forwardToCore(coreUrl: () => string, handoff: CallerHandoff) {
  return async (c: CustomAppContext): Promise<Response> => {
    const request = c.req.raw;
    const { pathname, search } = new URL(request.url);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      if (!HOP_BY_HOP.has(name)) headers[name] = value;
    });
    const incoming = (c.env as HttpBindings | undefined)?.incoming;
    if (!headers['host'] && incoming?.headers.host) headers['host'] = incoming.headers.host;
    // `http.mount_prefix` joins the forwarded prefix on node's headers (mountAt), which the app's request was not made from.
    const prefix = incoming?.headers['x-forwarded-prefix'];
    if (typeof prefix === 'string') headers['x-forwarded-prefix'] = prefix;
    const locals = ((c.env as HttpBindings | undefined)?.outgoing as unknown as ExpressResponse | undefined)?.locals;
    const access = locals?.['access'] as Access | undefined;
    // The core routes log it (the front logs only what the project's routes answer).
    if (locals) locals['forwarded'] = true;
    const key = access ? handoff.hand(access) : undefined;
    if (key) headers[CALLER_HEADER] = key;
    try {
      const body = await bodyOf(c, headers);
      const answer = await send(`${coreUrl()}${pathname}${search}`, { method: request.method, headers, body, signal: request.signal });
      return responseOf(answer, request.method);
    } finally {
      if (key) handoff.drop(key);
    }
  };
}
