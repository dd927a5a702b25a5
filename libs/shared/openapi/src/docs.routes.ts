import path from 'node:path';
import express, { Router } from 'express';

// Every URL here is relative: behind the gateway a service lives under a prefix it may never see.
const INDEX_HTML = (title: string) => `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <title>${title.replace(/[<&>"]/g, '')}</title>
    <link rel="stylesheet" type="text/css" href="./swagger-ui.css" />
    <link rel="stylesheet" type="text/css" href="./index.css" />
    <link rel="icon" type="image/png" href="./favicon-32x32.png" sizes="32x32" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="./swagger-ui-bundle.js" charset="UTF-8"></script>
    <script src="./swagger-ui-standalone-preset.js" charset="UTF-8"></script>
    <script src="./swagger-initializer.js" charset="UTF-8"></script>
  </body>
</html>
`;

/**
 * Where "Try it out" sends requests: `prefix`, the folder above `/docs/` (a service whose document's paths are
 * relative to where it is mounted, like an Agent Server under `/deployments/{id}`); `origin`, the host alone (a
 * document whose paths are the public ones, like `/v2/deployments`).
 */
export type DocsServer = 'prefix' | 'origin';

// Loads the document from next to /docs/. Opened through the gateway with a browser session, "Try it out" sends the
// session's CSRF token (its readable cookie) as it asks.
const INITIALIZER_JS = (server: DocsServer) => `function withCsrfToken(request) {
  var found = document.cookie.match(/(?:^|; )platform_csrf=([^;]+)/);
  if (found) request.headers['X-CSRF-Token'] = decodeURIComponent(found[1]);
  return request;
}
window.onload = async function () {
  var base = new URL('..', window.location.href);
  var spec = await (await fetch(new URL('openapi.json', base), { credentials: 'same-origin' })).json();
  spec.servers = [{ url: ${server === 'prefix' ? "base.href.replace(/\\/$/, '')" : 'base.origin'} }];
  window.ui = SwaggerUIBundle({
    spec: spec,
    dom_id: '#swagger-ui',
    deepLinking: true,
    persistAuthorization: true,
    requestInterceptor: withCsrfToken,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'StandaloneLayout',
  });
};
`;

function swaggerUiDir(): string {
  return path.dirname(require.resolve('swagger-ui-dist/package.json'));
}

/** Whether a path is one `swaggerUiRoutes` serves (for `createHttpApp`'s `publicPaths`: a browser sends no key). */
export function isDocsPath(requestPath: string): boolean {
  return requestPath === '/openapi.json' || requestPath === '/docs' || requestPath.startsWith('/docs/');
}

export interface SwaggerUiOptions {
  title: string;
  server: DocsServer;
}

/**
 * `GET /docs` (Swagger UI, its assets from swagger-ui-dist) reading `../openapi.json` relative to itself; mount it
 * where the document is served. `/docs` redirects to `docs/` so the relative asset URLs resolve under any prefix.
 */
export function swaggerUiRoutes(options: SwaggerUiOptions): Router {
  const html = INDEX_HTML(options.title);
  const initializer = INITIALIZER_JS(options.server);
  const router = Router();
  router.get('/docs', (req, res) => {
    if (!req.path.endsWith('/')) {
      const query = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '';
      res.redirect(301, `docs/${query}`);
      return;
    }
    res.type('html').send(html);
  });
  router.get('/docs/index.html', (_req, res) => {
    res.type('html').send(html);
  });
  router.get('/docs/swagger-initializer.js', (_req, res) => {
    res.type('application/javascript').send(initializer);
  });
  router.use('/docs', express.static(swaggerUiDir(), { index: false, fallthrough: true, maxAge: '1h' }));
  return router;
}

/** `GET /openapi.json` (the document, built once) and `GET /docs` (Swagger UI on it). */
export function docsRoutes(document: object, options: SwaggerUiOptions): Router {
  const router = Router();
  router.get('/openapi.json', (_req, res) => {
    res.json(document);
  });
  router.use(swaggerUiRoutes(options));
  return router;
}
