// S3 fixtures for tests: a real S3-compatible server (s3rver) on 127.0.0.1 and a fault-injecting HTTP
// proxy in front of it for the cases s3rver cannot produce itself (AccessDenied, delete denied, a failing
// part upload, a dropped connection, an endpoint that is not S3). The code under test talks real HTTP
// with the real SDK; only the injected fault is synthetic.
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest, createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EgressPolicy } from '@platform/egress';
import type { S3DestinationConnection } from './s3-client';

/**
 * s3rver and the fault proxies listen on 127.0.0.1, which the platform refuses to connect to unless the operator
 * allows it: tests allow exactly that address, as an operator would allow a self-hosted MinIO's.
 */
export const TEST_EGRESS_ENV = { EGRESS_ALLOWED_CIDRS: '127.0.0.1/32' } as const;

/** The egress policy of `TEST_EGRESS_ENV`, for code under test that takes a policy rather than a config. */
export const testEgress = (): EgressPolicy => new EgressPolicy({ allowedCidrs: [TEST_EGRESS_ENV.EGRESS_ALLOWED_CIDRS] });

/** s3rver's built-in account. */
export const TEST_S3_CREDENTIALS = { access_key_id: 'S3RVER', secret_access_key: 'S3RVER' } as const;

export interface TestS3Server {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  /** Where s3rver keeps objects: `<directory>/<bucket>/<key>._S3rver_object` (DuckDB can read it). */
  directory: string;
  /** A path-style destination connection to `bucket` on this server with s3rver's credentials. */
  connection(bucket: string, overrides?: Partial<S3DestinationConnection>): S3DestinationConnection;
  close(): Promise<void>;
}

/** Starts s3rver on 127.0.0.1 with an ephemeral port and a fresh directory holding `buckets`. */
export async function startTestS3Server(options: { buckets?: string[] } = {}): Promise<TestS3Server> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const S3rver = require('s3rver');
  const directory = mkdtempSync(join(tmpdir(), 's3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    vhostBuckets: false,
    configureBuckets: (options.buckets ?? []).map((name) => ({ name })),
  });
  const address = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    endpoint,
    directory,
    connection: (bucket, overrides = {}) => connectionTo(endpoint, bucket, overrides),
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

function connectionTo(endpoint: string, bucket: string, overrides: Partial<S3DestinationConnection>): S3DestinationConnection {
  return {
    bucket_name: bucket,
    prefix: '',
    region: 'us-east-1',
    endpoint_url: endpoint,
    addressing_style: 'path',
    credentials: { ...TEST_S3_CREDENTIALS },
    ...overrides,
  };
}

/** What the proxy does with one request instead of forwarding it. */
export type S3Fault =
  /** An S3 XML error (default `AccessDenied`, 403). */
  | { kind: 's3-error'; code?: string; status?: number; message?: string }
  /** Close the socket without answering. */
  | { kind: 'drop' }
  /** Answer like a web server that is not S3. */
  | { kind: 'not-s3'; status?: number };

/** A request as the proxy saw it; `operation` is a best guess of the S3 operation. */
export interface ProxiedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  operation: string;
}

export type FaultRule = (req: ProxiedRequest) => S3Fault | undefined;

export interface S3FaultProxy {
  endpoint: string;
  /** Every request received, in order. */
  requests: ProxiedRequest[];
  /** Replaces the fault rule (undefined = forward everything). */
  setRule(rule: FaultRule | undefined): void;
  connection(bucket: string, overrides?: Partial<S3DestinationConnection>): S3DestinationConnection;
  close(): Promise<void>;
}

function operationOf(method: string, path: string, query: URLSearchParams): string {
  const isObject = path.split('/').filter(Boolean).length > 1;
  if (method === 'PUT' && query.has('partNumber')) return 'UploadPart';
  if (method === 'POST' && query.has('uploads')) return 'CreateMultipartUpload';
  if (method === 'POST' && query.has('uploadId')) return 'CompleteMultipartUpload';
  if (method === 'DELETE' && query.has('uploadId')) return 'AbortMultipartUpload';
  if (method === 'POST' && query.has('delete')) return 'DeleteObjects';
  if (method === 'PUT') return isObject ? 'PutObject' : 'CreateBucket';
  if (method === 'DELETE') return isObject ? 'DeleteObject' : 'DeleteBucket';
  if (method === 'HEAD') return isObject ? 'HeadObject' : 'HeadBucket';
  if (method === 'GET') return isObject ? 'GetObject' : 'ListObjects';
  return `${method}`;
}

function s3ErrorXml(code: string, message: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>FAULT</RequestId></Error>`;
}

function answerFault(fault: S3Fault, req: IncomingMessage, res: ServerResponse): void {
  // Drain the body first so the client is not stuck writing it.
  req.resume();
  req.on('end', () => {
    if (fault.kind === 'drop') {
      req.socket.destroy();
      return;
    }
    if (fault.kind === 'not-s3') {
      const body = '<!DOCTYPE html><html><body><h1>Welcome to nginx!</h1></body></html>';
      res.writeHead(fault.status ?? 404, { 'content-type': 'text/html' });
      res.end(req.method === 'HEAD' ? undefined : body);
      return;
    }
    const code = fault.code ?? 'AccessDenied';
    const body = s3ErrorXml(code, fault.message ?? (code === 'AccessDenied' ? 'Access Denied' : code));
    res.writeHead(fault.status ?? 403, { 'content-type': 'application/xml', 'x-amz-request-id': 'FAULT' });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
}

/** An HTTP proxy on 127.0.0.1 forwarding to `target` (an s3rver endpoint) unless the rule injects a fault. */
export async function startS3FaultProxy(target: string, rule?: FaultRule): Promise<S3FaultProxy> {
  const upstream = new URL(target);
  let current = rule;
  const requests: ProxiedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://proxy');
    const seen: ProxiedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      operation: operationOf(req.method ?? 'GET', url.pathname, url.searchParams),
    };
    requests.push(seen);
    const fault = current?.(seen);
    if (fault) return answerFault(fault, req, res);
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    endpoint,
    requests,
    setRule: (next) => {
      current = next;
    },
    connection: (bucket, overrides = {}) => connectionTo(endpoint, bucket, overrides),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A plain web server that is not S3 at all (answers every request with an HTML page). */
export async function startNotS3Server(status = 200): Promise<{ endpoint: string; close(): Promise<void> }> {
  const server = createServer((req, res) => answerFault({ kind: 'not-s3', status }, req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A rule that injects `fault` into the `n`th (1-based) request of `operation` only, e.g. the 3rd UploadPart. */
export function nthRequestFault(operation: string, n: number, fault: S3Fault): FaultRule {
  let seen = 0;
  return (req) => (req.operation === operation && ++seen === n ? fault : undefined);
}
