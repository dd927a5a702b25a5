import type { RequestHandler } from 'express';
import { withoutRedaction, type Logger } from '@platform/logging';
import type { ServiceMetrics } from './metrics';

/** Logs each request when it ends and records its duration under the matched route, not the raw path. */
export function accessLog(metrics: ServiceMetrics, quietPaths: ReadonlySet<string>, logger: Logger): RequestHandler {
  // The line's fields are primitives and hold no secret (the path is logged as the client sent it, which redaction
  // never looked into), so it skips pino's redaction pass: half the cost of a line written on every request.
  const lines = withoutRedaction(logger);
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      // A matched express route, else a label set by the handler (the gateway names its proxy routes), never the raw
      // path: ids in paths would make one time series per resource.
      const route = req.route?.path ? `${req.baseUrl}${req.route.path}` : String(res.locals.routeLabel ?? (req.baseUrl || 'unmatched'));
      const status = String(res.statusCode);
      metrics.httpDuration.observe({ method: req.method, route, status }, seconds);
      if (res.statusCode >= 500) metrics.httpErrors.inc({ status });
      if (quietPaths.has(req.path)) return;
      // The service's logger with the request id as a field: the same line as the request's child logger would
      // write, without making one per request.
      lines.info(
        { request_id: res.locals.requestId, method: req.method, path: req.originalUrl, status: res.statusCode, duration_ms: Math.round(seconds * 1000) },
        'request',
      );
    });
    next();
  };
}
