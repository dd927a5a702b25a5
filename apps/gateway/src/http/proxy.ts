import { Agent } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseUrl, type Url } from 'node:url';
import type { NextFunction, Request, Response } from 'express';
import { createProxyMiddleware, debugProxyErrorsPlugin, proxyEventsPlugin } from 'http-proxy-middleware';
import { InputError } from '@platform/errors';
import { TRUSTED_HEADER_NAMES, deploymentKey, signIdentity } from '@platform/identity';
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

const NONE_FAILED: ReadonlySet<string> = new Set();

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
 * Replaces whatever identity the client sent with the gateway's signed one (or none, on public routes). A request
 * for a deployment is signed with that deployment's key (derived from the internal secret: the Agent Server holds
 * only its own) and for that deployment: its Agent Server refuses it anywhere else, and nothing a deployment can
 * sign passes on the platform's services, which verify with the secret itself. A deployment keeps
 * `Authorization`, for its own auth (langgraph.json `auth`) after the gateway's; platform services never see it.
 * The console's session cookies never leave the gateway.
 */
const STRIPPED_HEADERS = [...TRUSTED_HEADER_NAMES, ...CLIENT_IDENTITY_HEADERS];

function rewriteIdentityHeaders(req: Request, caller: Caller | undefined, signingKey: string, requestId: string, upstream: Upstream, deploymentId?: string): void {
  for (const name of STRIPPED_HEADERS) {
    if (req.headers[name] !== undefined && !(name === 'authorization' && upstream === 'deployment')) delete req.headers[name];
  }
  withoutSessionCookies(req);
  if (caller) Object.assign(req.headers, signIdentity(signingKey, caller.identity, requestId, { deploymentId }));
}

/** Deployment keys by deployment id, derived once (one HMAC each) and kept for the busiest deployments. */
function deploymentKeys(secret: string, maxEntries = 10_000): (deploymentId: string) => string {
  const keys = new Map<string, string>();
  return (deploymentId) => {
    let key = keys.get(deploymentId);
    if (!key) {
      if (keys.size >= maxEntries) keys.delete(keys.keys().next().value as string);
      key = deploymentKey(secret, deploymentId);
      keys.set(deploymentId, key);
    }
    return key;
  };
}

/** Upstream base URLs parsed once (http-proxy parses a target given as a string on every request). */
function parsedTargets(maxEntries = 10_000): (target: string) => Url {
  const parsed = new Map<string, Url>();
  return (target) => {
    let url = parsed.get(target);
    if (!url) {
      if (parsed.size >= maxEntries) parsed.delete(parsed.keys().next().value as string);
      url = parseUrl(target);
      parsed.set(target, url);
    }
    return url;
  };
}

/** Forwards one routed request (authenticated already, the caller in `res.locals.caller`) to its upstream. */
export type Forward = (match: RouteMatch, req: Request, res: Response, next: NextFunction) => Promise<void>;

/**
 * Forwards an authenticated (or public-route) request to its upstream: a fixed service, or the agent server
 * of `/deployments/{id}` as resolved from the control plane. Bodies are streamed, never parsed here.
 */
export function proxyTo(options: ProxyOptions): Forward {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  // Agent Server replicas that failed lately get no requests for a while, when the deployment has others.
  const health = new ReplicaHealth();
  const targetOf = parsedTargets();
  const keyOf = deploymentKeys(options.internalSecret);
  const proxy = createProxyMiddleware<IncomingMessage, ServerResponse>({
    router: (req) => targetOf(((req as Request).res?.locals.proxy as ProxyLocals).target),
    changeOrigin: true,
    xfwd: true,
    agent,
    proxyTimeout: options.proxyTimeoutMs || undefined,
    // Not the default plugins' logger, which formats a URL and a line for every answer to drop it (errors are
    // logged below): the one that keeps http-proxy's errors from crashing the process and destroys an upstream
    // answer whose client went away (SSE), and the one that calls `on` below.
    ejectPlugins: true,
    plugins: [debugProxyErrorsPlugin, proxyEventsPlugin],
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

  return async (match, req, res, next) => {
    const caller = res.locals.caller as Caller | undefined;
    const locals: ProxyLocals = { target: '' };
    if (match.rule.upstream === 'deployment') {
      // An open API description (res.locals.openDocs, no caller) is found by the deployment's id alone.
      const tenantId = caller ? caller.identity.tenantId : res.locals.openDocs === true ? '' : undefined;
      if (tenantId === undefined || (caller && !tenantId)) throw new InputError('X-Tenant-Id header is required');
      const resolved = await options.resolveDeployment(match.deploymentId as string, tenantId, String(res.locals.requestId));
      Object.assign(locals, {
        target: nextReplica(resolved, NONE_FAILED, health) ?? resolved.upstreamUrl,
        deploymentId: match.deploymentId,
        tenantId,
        signedFor: resolved.deploymentId,
      });
    } else {
      locals.target = options.upstreams[match.rule.upstream];
    }
    res.locals.proxy = locals;
    res.locals.routeLabel = match.rule.upstream === 'deployment' ? '/deployments/:id/*' : `${match.rule.prefix}/*`;
    const signingKey = match.rule.upstream === 'deployment' ? keyOf(locals.signedFor as string) : options.internalSecret;
    rewriteIdentityHeaders(req, caller, signingKey, String(res.locals.requestId), match.rule.upstream, locals.signedFor);
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
