import path from 'node:path';
import express, { Router } from 'express';
import { agentServerOpenApi } from './openapi';

// Every URL here is relative: behind the gateway the server lives under `/deployments/{id}`, which it never sees.
const INDEX_HTML = `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <title>Agent Server API</title>
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

// Loads the document from next to /docs/ and points "Try it out" at the same base (prefix included). Opened through
// the gateway with a browser session, "Try it out" sends the session's CSRF token (its readable cookie) as it asks.
const INITIALIZER_JS = `function withCsrfToken(request) {
  var found = document.cookie.match(/(?:^|; )platform_csrf=([^;]+)/);
  if (found) request.headers['X-CSRF-Token'] = decodeURIComponent(found[1]);
  return request;
}
window.onload = async function () {
  var base = new URL('..', window.location.href);
  var spec = await (await fetch(new URL('openapi.json', base), { credentials: 'same-origin' })).json();
  spec.servers = [{ url: base.href.replace(/\\/$/, '') }];
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

/**
 * The paths these routes serve, for `createHttpApp`'s `publicPaths`: a browser opening /docs sends no gateway
 * identity, and the reference needs no key (Try it out asks for one).
 */
export function isDocsPath(requestPath: string): boolean {
  return requestPath === '/openapi.json' || requestPath === '/docs' || requestPath.startsWith('/docs/');
}

/** `GET /openapi.json` (OpenAPI 3.1) and `GET /docs` (Swagger UI on it). */
export function docsRoutes(options: { version?: string } = {}): Router {
  const document = agentServerOpenApi({ version: options.version ?? '0.0.0' });
  const router = Router();

  router.get('/openapi.json', (_req, res) => {
    res.json(document);
  });
  router.get('/docs', (req, res) => {
    // Relative asset URLs need the trailing slash; `docs/` resolves against the URL the client used.
    if (!req.path.endsWith('/')) {
      const query = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '';
      res.redirect(301, `docs/${query}`);
      return;
    }
    res.type('html').send(INDEX_HTML);
  });
  router.get('/docs/index.html', (_req, res) => {
    res.type('html').send(INDEX_HTML);
  });
  router.get('/docs/swagger-initializer.js', (_req, res) => {
    res.type('application/javascript').send(INITIALIZER_JS);
  });
  router.use('/docs', express.static(swaggerUiDir(), { index: false, fallthrough: true, maxAge: '1h' }));
  return router;
}
