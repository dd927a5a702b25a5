// The routes of this server that are not its own (so not declared with route()): the probes createHttpApp serves
// (@platform/http-server) and the documentation docsRoutes serves (@platform/openapi). Described here as the
// reference server documents them; open without an API key.

const json = (schema: Record<string, unknown>) => ({ 'application/json': { schema } });
const probe = (operationId: string, summary: string, responses: Record<string, unknown>) => ({
  get: { tags: ['System'], operationId, summary, responses, security: [] },
});

export const probePaths = {
  '/ok': probe('ok', 'Liveness', {
    200: { description: 'Alive', content: json({ type: 'object', properties: { ok: { type: 'boolean', const: true } }, required: ['ok'] }) },
  }),
  '/ready': probe('ready', 'Readiness of the dependencies', {
    200: {
      description: 'Every dependency answers',
      content: json({
        type: 'object',
        properties: { ready: { type: 'boolean' }, checks: { type: 'object', additionalProperties: { type: 'boolean' } } },
        required: ['ready', 'checks'],
      }),
    },
    503: { description: 'A dependency does not answer (`ready: false`, the failing check false)' },
  }),
  '/metrics': probe('metrics', 'Prometheus metrics (text)', {
    200: { description: 'The metrics, in the Prometheus text format', content: { 'text/plain': { schema: { type: 'string' } } } },
  }),
  '/openapi.json': probe('openapi', 'This OpenAPI document', { 200: { description: 'The document', content: json({ type: 'object' }) } }),
  '/docs': probe('docs', 'Interactive API reference (HTML)', {
    200: { description: 'Swagger UI on this document (`/docs` redirects to `docs/`)', content: { 'text/html': { schema: { type: 'string' } } } },
  }),
};
