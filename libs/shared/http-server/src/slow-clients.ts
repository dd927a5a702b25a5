import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

/** How long a client may take to send a request's headers, and to send the next bytes of its body: 30 s each. */
export const DEFAULT_HEADERS_TIMEOUT_MS = 30_000;
export const DEFAULT_BODY_IDLE_TIMEOUT_MS = 30_000;

const hasBody = (req: IncomingMessage) => req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';

/**
 * Watches a request's body as it arrives: when no byte of it has come for `idleMs` (the connection's byte count
 * unchanged) while the server was reading, the client stalled; it is answered 408 and its connection closed. A body
 * that keeps coming, however slowly or long, is never cut, nor one the server is not reading (backpressure, a paused
 * request: the socket is paused then), nor anything after the body: the response (an SSE stream) has no limit here.
 */
function watchBody(req: IncomingMessage, res: ServerResponse, idleMs: number): void {
  const socket = req.socket;
  let seen = socket.bytesRead;
  let lastProgress = Date.now();
  // Checked a few times per period, so a stall is caught within idleMs and a quarter of it.
  const tick = Math.max(Math.floor(idleMs / 4), 5);
  const timer = setInterval(() => {
    if (req.complete || socket.destroyed) return clearInterval(timer);
    const now = Date.now();
    if (socket.bytesRead !== seen || socket.isPaused()) {
      seen = socket.bytesRead;
      lastProgress = now;
      return;
    }
    if (now - lastProgress < idleMs) return;
    clearInterval(timer);
    stalled(req, res, idleMs);
  }, tick);
  timer.unref();
  req.once('close', () => clearInterval(timer));
}

function stalled(req: IncomingMessage, res: ServerResponse, idleMs: number): void {
  const socket = req.socket;
  if (res.headersSent) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify({ detail: `Request body stalled: no bytes of it arrived for ${idleMs} ms` });
  res.shouldKeepAlive = false;
  res.writeHead(408, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), connection: 'close' });
  // Closed once the answer is out (whoever still waits for the body sees it end early); cut if the client reads nothing.
  res.end(body, () => socket.end());
  setTimeout(() => socket.destroy(), 1_000).unref();
}

/** `handler`, with each request body held to `idleMs` between its bytes (0: no limit). */
export function withBodyIdleTimeout(handler: RequestListener, idleMs: number): RequestListener {
  if (idleMs <= 0) return handler;
  return (req, res) => {
    if (!req.complete && hasBody(req)) watchBody(req, res, idleMs);
    handler(req, res);
  };
}
