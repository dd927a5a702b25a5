import { bool, dict, object, operation, str } from './openapi-helpers';

const SYS = 'System';

export const systemPaths = {
  '/ok': { get: { ...operation(SYS, 'ok', { summary: 'Liveness', response: object({ ok: bool() }) }), security: [] } },
  '/ready': { get: { ...operation(SYS, 'ready', { summary: 'Readiness of the dependencies', response: object({ ready: bool(), checks: dict() }) }), security: [] } },
  '/metrics': { get: { ...operation(SYS, 'metrics', { summary: 'Prometheus metrics (text)', response: str() }), security: [] } },
  '/openapi.json': { get: { ...operation(SYS, 'openapi', { summary: 'This OpenAPI document', response: dict() }), security: [] } },
  '/docs': { get: { ...operation(SYS, 'docs', { summary: 'Interactive API reference (HTML)', response: str() }), security: [] } },
};
