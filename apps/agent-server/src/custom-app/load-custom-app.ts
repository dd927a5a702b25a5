import { importExport, parseGraphSpec } from '@platform/agent-server-graphs';
import { InputError } from '@platform/errors';
import type { Context, Hono } from 'hono';

/** The project's Hono app (maybe of its own copy of hono): the server mounts its routes (`routes`) before the core ones. */
export type CustomApp = Pick<Hono, 'fetch' | 'routes'>;
export type CustomAppContext = Context;

const isHonoApp = (value: unknown): value is CustomApp =>
  typeof value === 'object' && value !== null && typeof (value as CustomApp).fetch === 'function' && Array.isArray((value as CustomApp).routes);

/**
 * Imports the Hono app that langgraph.json's `http.app` names (`./src/app.ts:app`, relative to `dir`) with the loader
 * graphs use. A module that is missing, fails to import or exports no Hono app is an InputError naming it: the server
 * does not start without the routes it was asked for.
 */
export async function loadCustomApp(appPath: string, dir: string): Promise<CustomApp> {
  const spec = parseGraphSpec(appPath);
  const value = await importExport(spec, dir, 'http.app');
  if (!isHonoApp(value)) throw new InputError(`http.app: export '${spec.exportName}' of ${spec.file} is not a Hono app (new Hono() of hono)`);
  return value;
}
