import fs from 'node:fs/promises';
import path from 'node:path';
import express, { Router, type Response } from 'express';
import { NotFoundError } from '@platform/errors';

// The page talks to this gateway only (connect-src 'self'); Mantine writes its CSS variables into a <style> element.
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

function securityHeaders(res: Response): void {
  res.set({
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'same-origin',
    'X-Frame-Options': 'DENY',
  });
}

/**
 * The web console's built bundle (`dir`, from `nx build console`): `index.html` at `/` and for every `/console/*`
 * page (client-side routes), never cached; `/assets/*` are content-hashed, so cached for a year as immutable.
 */
export function consoleRoutes(dir: string): Router {
  const router = Router();
  router.use(
    '/assets',
    express.static(path.join(dir, 'assets'), { index: false, immutable: true, maxAge: '365d', setHeaders: (res) => res.set('X-Content-Type-Options', 'nosniff') }),
    () => {
      throw new NotFoundError('No such console asset');
    },
  );
  router.get('/favicon.svg', (_req, res) => {
    res.set('Cache-Control', 'public, max-age=86400');
    res.sendFile(path.join(dir, 'favicon.svg'));
  });
  router.get(['/', '/console', '/console/*page'], async (_req, res) => {
    const html = await fs.readFile(path.join(dir, 'index.html'), 'utf8').catch(() => {
      throw new NotFoundError('The console is not built here: run `npx nx build console` (npm start builds it)');
    });
    securityHeaders(res);
    res.set('Cache-Control', 'no-cache');
    res.type('html').send(html);
  });
  return router;
}
