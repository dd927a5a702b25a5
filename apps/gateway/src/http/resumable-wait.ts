import http, { type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { Request, Response } from 'express';
import type { Logger } from '@platform/logging';
import { joinPathOf, nextReplica, type CachedResolver, type ReplicaHealth, type ResolvedDeployment, type ResumableRequest } from '@platform/gateway-routing';

export interface ResumableWaitOptions {
  resolveDeployment: CachedResolver;
  /** No byte from the upstream for this long: 504 (0 = no limit). */
  proxyTimeoutMs: number;
  /** How long a wait or join goes on looking for a replica to continue on once its own failed. */
  retryWindowMs: number;
  /** Replicas that failed lately (shared with the rest of the proxy). */
  health: ReplicaHealth;
  logger: Logger;
}

interface Target {
  deploymentId: string;
  tenantId: string;
  requestId: string;
}

const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade'];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Why an exchange with one replica ended without a complete answer. */
class ReplicaFailure extends Error {
  constructor(
    message: string,
    /** Whether the request may have reached the replica (a run may exist). */
    readonly reached: boolean,
    readonly timedOut = false,
  ) {
    super(message);
  }
}

function forwardedHeaders(req: Request, target: URL, body: boolean): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = { ...req.headers, host: target.host };
  for (const name of HOP_BY_HOP) delete headers[name];
  if (!body) {
    delete headers['content-length'];
    delete headers['content-type'];
  }
  // As the rest of the proxy sends them (xfwd).
  const append = (name: string, value: string) => (headers[name] = headers[name] ? `${String(headers[name])}, ${value}` : value);
  append('x-forwarded-for', req.socket.remoteAddress ?? '');
  append('x-forwarded-port', String(req.socket.localPort ?? ''));
  append('x-forwarded-proto', req.protocol);
  headers['x-forwarded-host'] ??= req.headers.host;
  return headers;
}

/**
 * One request to one replica. The body is piped only once the connection is up, so a replica that cannot be
 * reached has not consumed it and the request can go elsewhere untouched.
 */
function exchange(
  base: string,
  path: string,
  req: Request,
  body: { stream: Request; tap: BodyTap } | undefined,
  signal: AbortSignal,
  idleMs: number,
): Promise<IncomingMessage> {
  // Appended, not resolved: an upstream's own path prefix stays.
  const target = new URL(`${base.replace(/\/+$/, '')}${path}`);
  const transport = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    let connected = false;
    const upstream = transport.request(target, { method: body ? req.method : 'GET', headers: forwardedHeaders(req, target, Boolean(body)), agent: false, signal });
    upstream.on('socket', (socket) => {
      const go = () => {
        connected = true;
        if (!body) return void upstream.end();
        body.tap.watch(body.stream);
        body.stream.pipe(upstream);
      };
      if (socket.connecting) socket.once('connect', go);
      else go();
    });
    if (idleMs > 0) upstream.setTimeout(idleMs, () => upstream.destroy(new ReplicaFailure('Upstream timed out', true, true)));
    upstream.on('error', (err) => reject(err instanceof ReplicaFailure ? err : new ReplicaFailure(err.message, connected)));
    upstream.on('response', (response) => {
      if (idleMs > 0) response.setTimeout(idleMs, () => response.destroy(new ReplicaFailure('Upstream timed out', true, true)));
      resolve(response);
    });
  });
}

function responseHeaders(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = { ...headers };
  for (const name of [...HOP_BY_HOP, 'content-length']) delete out[name];
  return out;
}

/**
 * Reads a 200 answer of a wait or join: newlines (the keep-alive) go to the client as they come, the JSON after them
 * is held until it is complete, so a replica dying mid-answer leaves no half of it with the client.
 */
function relayAnswer(response: IncomingMessage, res: Response): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const held: Buffer[] = [];
    response.on('data', (chunk: Buffer) => {
      if (held.length) return void held.push(chunk);
      let start = 0;
      while (start < chunk.length && (chunk[start] === 0x0a || chunk[start] === 0x20 || chunk[start] === 0x0d || chunk[start] === 0x09)) start++;
      if (start > 0) res.write(chunk.subarray(0, start));
      if (start < chunk.length) held.push(chunk.subarray(start));
    });
    response.on('error', (err) => reject(err instanceof ReplicaFailure ? err : new ReplicaFailure(err.message, true)));
    response.on('close', () => (response.complete ? resolve(Buffer.concat(held)) : reject(new ReplicaFailure('Upstream closed mid-answer', true))));
  });
}

async function readAll(response: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Forwards a wait or join to the deployment's Agent Server and, when the replica serving it fails, carries on on
 * another one (or the same address again: behind a Kubernetes Service, another pod) until `retryWindowMs`: a join is
 * sent again; a wait is sent again only if it never reached the replica, and once its run exists it goes on as a
 * join of that run. The client gets the run's result, not a 502.
 */
export function resumableWait(options: ResumableWaitOptions) {
  const { logger } = options;

  return async (req: Request, res: Response, request: ResumableRequest, target: Target): Promise<void> => {
    const controller = new AbortController();
    res.on('close', () => controller.abort());
    const failed = new Set<string>();
    const deadline = Date.now() + options.retryWindowMs;
    let deployment: ResolvedDeployment = await options.resolveDeployment(target.deploymentId, target.tenantId, target.requestId);
    let path = request.kind === 'join' ? request.path : req.url;
    let body = request.kind === 'wait' ? { stream: req, tap: new BodyTap() } : undefined;
    let backoff = 100;
    let lastError = 'Upstream unavailable';

    while (!controller.signal.aborted) {
      let replica = nextReplica(deployment, failed, options.health);
      if (!replica) {
        // Every known replica failed: look again (the control plane may know of a new one), after a pause.
        if (Date.now() + backoff > deadline) break;
        await sleep(backoff);
        backoff = Math.min(backoff * 2, 2_000);
        options.resolveDeployment.invalidate(target.deploymentId, target.tenantId);
        deployment = await options.resolveDeployment(target.deploymentId, target.tenantId, target.requestId).catch(() => deployment);
        failed.clear();
        replica = nextReplica(deployment, failed, options.health) as string;
      }
      try {
        const response = await exchange(replica, path, req, body, controller.signal, options.proxyTimeoutMs);
        const joinPath = body && response.statusCode === 200 ? joinPathOf(response.headers, await body.tap.cancelOnDisconnect()) : undefined;
        if (response.statusCode !== 200 || (body && !joinPath)) return await relayWhole(response, res);
        if (!res.headersSent) {
          res.writeHead(200, responseHeaders(response.headers));
          res.flushHeaders();
        }
        // From here on, the run exists: waiting on it elsewhere is a join.
        if (joinPath) {
          path = joinPath;
          body = undefined;
        }
        res.end(await relayAnswer(response, res));
        return;
      } catch (err) {
        if (controller.signal.aborted) return;
        const failure = err instanceof ReplicaFailure ? err : new ReplicaFailure(String(err), true);
        lastError = failure.message;
        // A wait that may have reached the replica may have created a run: sending it again could make a second.
        if (failure.timedOut || (body && failure.reached)) return fail(res, failure.timedOut ? 504 : 502, failure.message);
        logger.warn({ replica, path, err: failure.message }, 'upstream failed; continuing on another replica');
        failed.add(replica);
        options.health.markFailed(replica);
        options.resolveDeployment.invalidate(target.deploymentId, target.tenantId);
      }
    }
    if (!controller.signal.aborted) fail(res, 502, lastError);
  };
}

/** A non-200 answer (or a wait that named no run) is passed on as it is. */
async function relayWhole(response: IncomingMessage, res: Response): Promise<void> {
  const text = await readAll(response);
  if (!res.headersSent) {
    res.writeHead(response.statusCode ?? 502, { ...responseHeaders(response.headers), 'content-length': text.length });
    res.end(text);
    return;
  }
  // The client already has its 200: a failure goes in the body, as the Agent Server reports one after its headers.
  let message = text.toString('utf8');
  try {
    message = String((JSON.parse(message) as { detail?: unknown }).detail ?? message);
  } catch {
    // not JSON: as is
  }
  res.end(JSON.stringify({ __error__: { error: `HTTP ${response.statusCode}`, message } }));
}

function fail(res: Response, status: number, message: string): void {
  if (res.headersSent) {
    res.end(JSON.stringify({ __error__: { error: 'UpstreamUnavailable', message } }));
    return;
  }
  res.status(status).json({ detail: status === 504 ? 'Upstream timed out' : 'Upstream unavailable' });
}

/**
 * Reads, beside the replica, the body of a wait as it streams there: whether it asked to cancel its run when the
 * client goes (`on_disconnect: "cancel"`), for the join that may replace it. Bodies over 1 MiB are not read for it.
 */
class BodyTap {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private ended?: Promise<boolean>;

  watch(stream: Request): void {
    const onData = (chunk: Buffer) => {
      this.size += chunk.length;
      if (this.size <= 1 << 20) this.chunks.push(chunk);
    };
    stream.on('data', onData);
    this.ended = new Promise((resolve) => {
      stream.once('end', () => resolve(this.parse()));
      stream.once('error', () => resolve(false));
    }).finally(() => stream.off('data', onData)) as Promise<boolean>;
  }

  cancelOnDisconnect(): Promise<boolean> {
    return this.ended ?? Promise.resolve(false);
  }

  private parse(): boolean {
    if (this.size > 1 << 20) return false;
    try {
      return (JSON.parse(Buffer.concat(this.chunks).toString('utf8')) as { on_disconnect?: unknown }).on_disconnect === 'cancel';
    } catch {
      return false;
    }
  }
}
