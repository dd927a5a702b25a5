import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { expressAppOf, expressMessages } from './express-messages';

export interface RunningHttpServer {
  server: Server;
  port: number;
  url: string;
  /** Stops accepting connections, lets in-flight requests finish for up to `graceMs`, then cuts the rest. */
  close(graceMs?: number): Promise<void>;
}

export interface HttpServerOptions {
  /**
   * The express app that serves this server's requests, when `handler` is not that app itself but leads to it (a
   * listener in front of it): requests and responses are born with its prototypes (`expressMessages`). Default: the
   * handler, when it is an express app.
   */
  express?: Express;
}

/** Listens on `host:port` (port 0 = any free port) and resolves once bound. */
export async function startHttpServer(handler: RequestListener, host: string, port: number, options: HttpServerOptions = {}): Promise<RunningHttpServer> {
  const app = options.express ?? expressAppOf(handler);
  const server = app ? createServer(expressMessages(app), handler) : createServer(handler);
  // Behind the gateway's keep-alive pool: keep idle sockets longer than the proxy does.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    server,
    port: bound,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}`,
    close: (graceMs = 10_000) =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        force.unref();
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
