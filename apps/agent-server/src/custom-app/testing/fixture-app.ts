// An `http.app` module for load-custom-app.spec.ts: a Hono app, and an export that is not one.
import { Hono } from 'hono';

export const app = new Hono().get('/x', (c) => c.text('x'));

export const notApp = { fetch: 1 };
