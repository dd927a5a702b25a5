import type { RequestHandler } from 'express';
import type { HttpConfig } from '@platform/agent-server-graphs';

type CorsConfig = NonNullable<HttpConfig['cors']>;

const DEFAULT_METHODS = ['GET', 'HEAD', 'PUT', 'POST', 'DELETE', 'PATCH'];
// The SDK reads these from answers (a run's location, a search's total and next page).
const ALWAYS_EXPOSED = ['content-location', 'x-pagination-total', 'x-pagination-next'];

/**
 * CORS as langgraph.json `http.cors` sets it (the reference's semantics): origins by list (`*`: any) or by regex
 * (the origin echoed), credentials, exposed headers (the SDK's own always among them), and preflights (`OPTIONS`)
 * answered 204 with the allowed methods, headers (the requested ones when none are set) and `max_age`.
 */
export function corsMiddleware(config: CorsConfig): RequestHandler {
  const regex = config.allow_origin_regex ? new RegExp(config.allow_origin_regex) : undefined;
  const origins = config.allow_origins ?? [];
  const anyOrigin = !regex && origins.includes('*');
  const exposed = [...new Set([...(config.expose_headers ?? []).map((h) => h.toLowerCase()), ...ALWAYS_EXPOSED])].join(', ');
  const allowedOrigin = (origin: string | undefined): string | undefined => {
    if (anyOrigin) return '*';
    if (!origin) return undefined;
    if (regex) return regex.test(origin) ? origin : undefined;
    return origins.includes(origin) ? origin : undefined;
  };
  return (req, res, next) => {
    const origin = allowedOrigin(req.headers.origin);
    if (!anyOrigin) res.vary('Origin');
    if (origin) {
      res.set('Access-Control-Allow-Origin', origin);
      if (config.allow_credentials) res.set('Access-Control-Allow-Credentials', 'true');
      res.set('Access-Control-Expose-Headers', exposed);
    }
    if (req.method !== 'OPTIONS' || !req.headers['access-control-request-method']) return next();
    if (origin) {
      if (config.max_age !== undefined) res.set('Access-Control-Max-Age', String(config.max_age));
      res.set('Access-Control-Allow-Methods', (config.allow_methods ?? DEFAULT_METHODS).join(', '));
      const headers = config.allow_headers?.join(', ') ?? req.headers['access-control-request-headers'];
      if (headers) {
        res.set('Access-Control-Allow-Headers', headers);
        if (!config.allow_headers) res.vary('Access-Control-Request-Headers');
      }
    }
    res.status(204).end();
  };
}
