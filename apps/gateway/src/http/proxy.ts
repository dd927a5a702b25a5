import { Agent } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { InputError } from '@platform/errors';
import { TRUSTED_HEADER_NAMES, signIdentity } from '@platform/identity';
import type { Logger } from '@platform/logging';
import { deletedDeploymentId, nextReplica, ReplicaHealth, resumableRequest, type CachedResolver, type RouteMatch, type Upstream } from '@platform/gateway-routing';
import type { Caller } from '@platform/gateway-identity';
import { CLIENT_IDENTITY_HEADERS } from './authenticate.middleware';
import { resumableWait } from './resumable-wait';
import { withoutSessionCookies } from './session-cookies';

export interface ProxyOptions {
  upstreams: Record<Exclude<Upstream, 'deployment'>, string>;
  resolveDeployment: CachedResolver;
  internalSecret: string;
  proxyTimeoutMs: number;
  /** How long a wait or join whose Agent Server replica failed looks for another to continue on. */
  retryWindowMs: number;
  logger: Logger;
}

/** Errors that say the upstream is not there (rather than slow, or gone mid-answer). */
const UNREACHABLE = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

interface ProxyLocals {
  target: string;
  deploymentId?: string;
  tenantId?: string;
  /** The resolved (canonical) deployment id the request is signed for. */
  signedFor?: string;
}

/**
 * Replaces whatever identity the client sent with the gateway's signed one (or none, on public routes), signed for
 * the deployment it was routed to: that deployment's Agent Server refuses it anywhere else. A deployment keeps
 * `Authorization`, for its own auth (langgraph.json `auth`) after the gateway's; platform services never see it.
 * The console's session cookies never leave the gateway.
 */
function rewriteIdentityHeaders(req: Request, caller: Caller | undefined, secret: string, requestId: string, upstream: Upstream, deploymentId?: string): void {
  for (const name of [...TRUSTED_HEADER_NAMES, ...CLIENT_IDENTITY_HEADERS]) {
    if (!(name === 'authorization' && upstream === 'deployment')) delete req.headers[name];
  }
  withoutSessionCookies(req);
  if (caller) Object.assign(req.headers, signIdentity(secret, caller.identity, requestId, { deploymentId }));
}

/**
 * Forwards an authenticated (or public-route) request to its upstream: a fixed service, or the agent server
 * of `/deployments/{id}` as resolved from the control plane. Bodies are streamed, never parsed here.
 */
export function proxyTo(options: ProxyOptions): (match: RouteMatch) => RequestHandler {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  // Agent Server replicas that failed lately get no requests for a while, when the deployment has others.
  const health = new ReplicaHealth();
  const proxy = createProxyMiddleware<IncomingMessage, ServerResponse>({
    router: (req) => ((req as Request).res?.locals.proxy as ProxyLocals).target,
    changeOrigin: true,
    xfwd: true,
    agent,
    proxyTimeout: options.proxyTimeoutMs || undefined,
    logger: undefined,
    on: {
      proxyRes: (proxyRes, req) => {
        // A deleted deployment answers 404 at once: its cached route goes with the control plane's 204.
        const deleted = deletedDeploymentId(req.method, req.url, proxyRes.statusCode);
        const tenantId = deleted && ((req as Request).res?.locals.caller as Caller | undefined)?.identity.tenantId;
        if (!deleted || !tenantId) return;
        // Ids are UUIDs: the route may have been cached under the id as the client wrote it or in lower case.
        options.resolveDeployment.invalidate(deleted, tenantId);
        options.resolveDeployment.invalidate(deleted.toLowerCase(), tenantId);
      },
      error: (err, req, res) => {
        const locals = (req as Request).res?.locals.proxy as ProxyLocals | undefined;
        if (locals?.deploymentId && locals.tenantId) options.resolveDeployment.invalidate(locals.deploymentId, locals.tenantId);
        if (locals?.deploymentId && UNREACHABLE.has((err as NodeJS.ErrnoException).code ?? '')) health.markFailed(locals.target);
        options.logger.warn({ err, target: locals?.target, path: req.url }, 'upstream request failed');
        if (!('headersSent' in res) || res.headersSent) {
          res.destroy();
          return;
        }
        const timedOut = (err as NodeJS.ErrnoException).code === 'ECONNRESET' && options.proxyTimeoutMs > 0;
        res.writeHead(timedOut ? 504 : 502, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ detail: timedOut ? 'Upstream timed out' : 'Upstream unavailable' }));
      },
    },
  });

  const resume = resumableWait({ ...options, health });

  return (match) => async (req, res, next) => {
    const caller = res.locals.caller as Caller | undefined;
    const locals: ProxyLocals = { target: '' };
    if (match.rule.upstream === 'deployment') {
      const tenantId = caller?.identity.tenantId;
      if (!tenantId) throw new InputError('X-Tenant-Id header is required');
      const resolved = await options.resolveDeployment(match.deploymentId as string, tenantId, String(res.locals.requestId));
      Object.assign(locals, {
        target: nextReplica(resolved, new Set(), health) ?? resolved.upstreamUrl,
        deploymentId: match.deploymentId,
        tenantId,
        signedFor: resolved.deploymentId,
      });
    } else {
      locals.target = options.upstreams[match.rule.upstream];
    }
    res.locals.proxy = locals;
    res.locals.routeLabel = match.rule.upstream === 'deployment' ? '/deployments/:id/*' : `${match.rule.prefix}/*`;
    rewriteIdentityHeaders(req, caller, options.internalSecret, String(res.locals.requestId), match.rule.upstream, locals.signedFor);
    // With X-Forwarded-Proto/Host (xfwd), the public base URL of what the upstream serves: agent servers put it in
    // the links they hand out (A2A agent cards). Only the gateway sets it.
    delete req.headers['x-forwarded-prefix'];
    if (match.removedPrefix) req.headers['x-forwarded-prefix'] = match.removedPrefix;
    req.url = match.upstreamPath;
    const resumable = locals.deploymentId ? resumableRequest(req.method, match.upstreamPath) : undefined;
    if (resumable && locals.deploymentId && locals.tenantId !== undefined) {
      return resume(req, res, resumable, { deploymentId: locals.deploymentId, tenantId: locals.tenantId, requestId: String(res.locals.requestId) });
    }
    return proxy(req, res as Response, next);
  };
}
