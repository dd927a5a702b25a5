import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** A service's Prometheus registry with the HTTP metrics every service exposes on `/metrics`. */
export interface ServiceMetrics {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  httpErrors: Counter<'status'>;
}

/** One registry per service instance (not prom-client's global), so several services can share a process. */
export function createMetrics(service: string): ServiceMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration by method, route and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    }),
    httpErrors: new Counter({
      name: 'http_server_errors_total',
      help: 'Responses with a 5xx status',
      labelNames: ['status'],
      registers: [registry],
    }),
  };
}
