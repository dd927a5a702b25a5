import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { expressAppOf, expressMessages } from './express-messages';
import { DEFAULT_BODY_IDLE_TIMEOUT_MS, DEFAULT_HEADERS_TIMEOUT_MS, withBodyIdleTimeout } from './slow-clients';

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
  /** Longest a client may take to send a request's headers (408 and the connection closed beyond); default 30 s. */
  headersTimeoutMs?: number;
  /**
   * Longest gap between the bytes of a request body (408 and the connection closed beyond; 0: none); default 30 s. A
   * body that keeps coming is never cut, however long it takes; responses (SSE streams) have no limit here.
   */
  bodyIdleTimeoutMs?: number;
}

/** The slow-client limits of a service's config (`HTTP_HEADERS_TIMEOUT`, `HTTP_BODY_IDLE_TIMEOUT`), as startHttpServer takes them. */
export function slowClientLimits(config: { HTTP_HEADERS_TIMEOUT: number; HTTP_BODY_IDLE_TIMEOUT: number }): Pick<HttpServerOptions, 'headersTimeoutMs' | 'bodyIdleTimeoutMs'> {
  return { headersTimeoutMs: config.HTTP_HEADERS_TIMEOUT, bodyIdleTimeoutMs: config.HTTP_BODY_IDLE_TIMEOUT };
}

/**
 * Listens on `host:port` (port 0 = any free port) and resolves once bound. Slow clients are held to two idle limits,
 * not to a total: headers must arrive within `headersTimeoutMs`, and a body may pause no longer than
 * `bodyIdleTimeoutMs` between its bytes (Node's `requestTimeout`, which would cut a slow but steady upload, is off).
 */
export async function startHttpServer(handler: RequestListener, host: string, port: number, options: HttpServerOptions = {}): Promise<RunningHttpServer> {
  const app = options.express ?? expressAppOf(handler);
  const headersTimeout = options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;
  const limits = {
    requestTimeout: 0,
    headersTimeout,
    // Node checks the headers limit every this often (30 s by default, which let stalled headers hold on 86 s).
    connectionsCheckingInterval: headersTimeout > 0 ? Math.max(Math.min(1_000, Math.floor(headersTimeout / 4)), 5) : 30_000,
    // Behind the gateway's keep-alive pool: keep idle sockets longer than the proxy does.
    keepAliveTimeout: 65_000,
  };
  const listener = withBodyIdleTimeout(handler, options.bodyIdleTimeoutMs ?? DEFAULT_BODY_IDLE_TIMEOUT_MS);
  const server = createServer({ ...(app ? expressMessages(app) : {}), ...limits }, listener);
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
