import type { Express } from 'express';
import { openApiPath, type DeclaredRoute } from './route';

interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

function served(stack: Layer[], nested: boolean): { key: string; nested: boolean }[] {
  return stack.flatMap((layer) => {
    const { route } = layer;
    if (route) {
      const paths = Array.isArray(route.path) ? route.path : [route.path];
      return paths.flatMap((p) =>
        Object.keys(route.methods)
          .filter((m) => m !== '_all')
          .map((m) => ({ key: `${m.toUpperCase()} ${openApiPath(p)}`, nested })),
      );
    }
    return layer.handle?.stack ? served(layer.handle.stack, true) : [];
  });
}

/** Routes that need no description: the probes and the documentation itself (`docsRoutes`). */
export const UNDOCUMENTED_ROUTES = ['GET /ok', 'GET /ready', 'GET /metrics', 'GET /openapi.json', 'GET /docs', 'GET /docs/index.html', 'GET /docs/swagger-initializer.js'];

/**
 * The routes an app serves that no declaration describes (`METHOD /path`), for a test that fails when a route has
 * no schema. Routes inside a mounted router are reported too (their mount path is not kept by express): declare
 * them with `mountRoutes` on the app instead. `allowed` lists routes known to need no description, wherever they are mounted.
 */
export function undeclaredRoutes(app: Express, routes: readonly DeclaredRoute[], allowed: readonly string[] = UNDOCUMENTED_ROUTES): string[] {
  const declared = new Set(routes.map((r) => `${r.method.toUpperCase()} ${openApiPath(r.path)}`));
  const stack = (app as unknown as { router: { stack: Layer[] } }).router.stack;
  return served(stack, false)
    .filter(({ key, nested }) => !allowed.includes(key) && !(declared.has(key) && !nested))
    .map(({ key, nested }) => (nested ? `${key} (in a mounted router)` : key));
}
