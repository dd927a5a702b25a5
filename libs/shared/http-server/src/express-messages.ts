import { IncomingMessage, ServerResponse, type RequestListener, type ServerOptions } from 'node:http';
import type { Express } from 'express';

/**
 * The request and response classes for `http.createServer` whose instances are born with an express app's own
 * prototypes (`app.request`, `app.response`), for a server whose requests that app serves.
 *
 * Express gives every request and response its prototypes as it starts handling them (`Object.setPrototypeOf` in
 * `app.handle`). Changing the prototype of an object already made costs V8 dearly: a bare express route spends
 * ~100 µs of CPU per request served as Node makes them, ~35 µs born with the prototypes
 * (tools/bench/http-server/express-messages.ts). Born with them, express's call finds the prototype already set and
 * does nothing; what requests and responses can do is unchanged (the same prototypes, from the start rather than from
 * the first middleware).
 */
export function expressMessages(app: Express): Pick<ServerOptions, 'IncomingMessage' | 'ServerResponse'> {
  // Node's constructors are plain functions: called on an object made from a function whose `prototype` is the
  // app's, they set it up as `new` would. (`Reflect.construct` with a `new.target` makes the same objects, but those
  // cost more per request than the prototype change: ~190 µs in the same bench.) Were Node's constructors classes,
  // which cannot be called, requests would stay as Node makes them.
  if (isClass(IncomingMessage) || isClass(ServerResponse)) return {};
  const [NodeRequest, NodeResponse] = [IncomingMessage as unknown as (this: unknown, ...args: unknown[]) => void, ServerResponse as unknown as (this: unknown, ...args: unknown[]) => void];
  function Request(this: unknown, socket: unknown) {
    NodeRequest.call(this, socket);
  }
  Request.prototype = app.request;
  function Response(this: unknown, req: unknown, options: unknown) {
    NodeResponse.call(this, req, options);
  }
  Response.prototype = app.response;
  return { IncomingMessage: Request as unknown as typeof IncomingMessage, ServerResponse: Response as unknown as typeof ServerResponse };
}

const isClass = (constructor: unknown) => Function.prototype.toString.call(constructor).startsWith('class');

/** The express app a listener is, if it is one. */
export function expressAppOf(listener: RequestListener): Express | undefined {
  const app = listener as Partial<Express> & { handle?: unknown };
  return typeof app.handle === 'function' && typeof app.request === 'object' && typeof app.response === 'object' ? (app as Express) : undefined;
}
