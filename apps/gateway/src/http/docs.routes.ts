import { Router } from 'express';
import { swaggerUiRoutes, type OpenApiDocument } from '@platform/openapi';
import type { Logger } from '@platform/logging';
import type { Upstream } from '@platform/gateway-routing';

/** Where the gateway serves a service's API description: `<prefix>/openapi.json` and Swagger UI at `<prefix>/docs`. */
export interface ServiceDocs {
  prefix: string;
  /** The service whose `/openapi.json` is served; `gateway` is the gateway's own. */
  source: Exclude<Upstream, 'deployment'> | 'gateway';
  title: string;
}

/**
 * One prefix per service, the one its API lives under (tracing serves several LangSmith prefixes: it gets its own).
 * Agent Servers serve theirs themselves, at `/deployments/{id}/docs`, through the proxy.
 */
export const SERVICE_DOCS: readonly ServiceDocs[] = [
  { prefix: '/v2', source: 'control-plane', title: 'Control plane API' },
  { prefix: '/api/v1/tracing', source: 'tracing', title: 'Tracing API' },
  { prefix: '/api/v1/bulk-exports', source: 'export', title: 'Bulk export API' },
  { prefix: '/api/v1/gateway', source: 'gateway', title: 'Gateway API' },
];

export interface DocsRoutesOptions {
  upstreams: Record<Exclude<Upstream, 'deployment'>, string>;
  /** The gateway's own document. */
  own: OpenApiDocument;
  logger: Logger;
  docs?: readonly ServiceDocs[];
  timeoutMs?: number;
}

/**
 * `GET <prefix>/openapi.json` and `GET <prefix>/docs` for each service: public (a browser opening the docs sends no
 * key; "Try it out" asks for one), answered before authentication and the proxy. A service's document is read from
 * its `/openapi.json` on each request (services serve it without an identity).
 */
export function serviceDocsRoutes(options: DocsRoutesOptions): Router {
  const router = Router();
  for (const docs of options.docs ?? SERVICE_DOCS) {
    router.get(`${docs.prefix}/openapi.json`, async (_req, res) => {
      if (docs.source === 'gateway') {
        res.json(options.own);
        return;
      }
      const url = new URL('/openapi.json', options.upstreams[docs.source]);
      try {
        const upstream = await fetch(url, { signal: AbortSignal.timeout(options.timeoutMs ?? 10_000) });
        if (!upstream.ok) throw new Error(`${url} answered ${upstream.status}`);
        res.type('application/json').send(Buffer.from(await upstream.arrayBuffer()));
      } catch (err) {
        options.logger.warn({ err, upstream: docs.source }, 'API description unavailable');
        res.status(502).json({ detail: 'Upstream unavailable' });
      }
    });
    router.use(docs.prefix, swaggerUiRoutes({ title: docs.title, server: 'origin' }));
  }
  return router;
}
