import type { HttpBindings } from '@hono/node-server';
import type { Response as ExpressResponse } from 'express';
import type { Access } from '@platform/agent-server-auth';
import { CALLER_HEADER, type CallerHandoff } from './caller-handoff';
import type { CustomAppContext } from './load-custom-app';

// Headers of one connection, not of the request: fetch sets its own (and refuses some).
const HOP_BY_HOP = ['host', 'connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'expect', 'content-length', 'proxy-connection'];
const NULL_BODY = new Set([101, 204, 205, 304]);

/**
 * The handler behind the project's routes: the request as the app's middleware left it (it may have rewritten the
 * body or headers) goes to the core routes, and their answer comes back through the middleware (which may add
 * headers). The caller the front authenticated goes with it (`handoff`); the body streams back as it comes (SSE).
 */
export function forwardToCore(coreUrl: () => string, handoff: CallerHandoff) {
  return async (c: CustomAppContext): Promise<Response> => {
    const request = c.req.raw;
    const { pathname, search } = new URL(request.url);
    const headers = new Headers(request.headers);
    for (const name of HOP_BY_HOP) headers.delete(name);
    headers.delete(CALLER_HEADER);
    const access = ((c.env as HttpBindings | undefined)?.outgoing as unknown as ExpressResponse | undefined)?.locals?.['access'] as Access | undefined;
    const key = access ? handoff.hand(access) : undefined;
    if (key) headers.set(CALLER_HEADER, key);
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
    try {
      // The request the middleware left (it may be a new one with a new body); one it read already, through Hono's cache.
      const body = !hasBody ? undefined : request.bodyUsed ? await c.req.arrayBuffer() : await request.arrayBuffer();
      const answer = await fetch(`${coreUrl()}${pathname}${search}`, { method: request.method, headers, body, redirect: 'manual', signal: request.signal });
      const out = new Headers(answer.headers);
      for (const name of ['connection', 'keep-alive', 'transfer-encoding']) out.delete(name);
      return new Response(NULL_BODY.has(answer.status) ? null : answer.body, { status: answer.status, statusText: answer.statusText, headers: out });
    } finally {
      if (key) handoff.drop(key);
    }
  };
}
