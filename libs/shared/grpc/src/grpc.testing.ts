// Test support for this lib's specs: the real protos, typed by hand (this util lib may not import
// the generated types of @platform/contracts), and a logger that records.
import type * as grpc from '@grpc/grpc-js';
import { createClient, type ClientConstructor } from './grpc-client';
import { startGrpcServer } from './grpc-server';
import type { GrpcLogger } from './logger';
import { loadProtoPackage, serviceConstructor } from './proto-files';

export interface ResolveRequest {
  deployment_id: string;
  tenant_id: string;
}

export interface ResolveResponse extends ResolveRequest {
  name: string;
  upstream_url: string;
  status: string;
  revision_id: string;
}

export interface DeploymentsTestClient extends grpc.Client {
  ResolveDeployment(argument: Partial<ResolveRequest>, callback: grpc.requestCallback<ResolveResponse>): grpc.ClientUnaryCall;
}

export interface RunBatchMessage {
  runs: { id: string; start_time: string; name: string; inputs?: string }[];
  cursor: { start_time: string; id: string } | null;
  ndjson?: { lines: Buffer; count: number; max_line_bytes: number } | null;
}

export interface StreamRunsMessage {
  session_id: string;
  batch_size: number;
}

export interface RunsTestClient extends grpc.Client {
  StreamRuns(argument: Partial<StreamRunsMessage>, options?: grpc.CallOptions): grpc.ClientReadableStream<RunBatchMessage>;
}

export interface HealthTestClient extends grpc.Client {
  Watch(argument: { service: string }, options?: grpc.CallOptions): grpc.ClientReadableStream<{ status: string }>;
}

function service<C extends grpc.Client>(file: string, name: string) {
  const Ctor = serviceConstructor(loadProtoPackage(file), name);
  return { definition: Ctor.service, Client: Ctor as unknown as ClientConstructor<C> };
}

export const deploymentsProto = () =>
  service<DeploymentsTestClient>('controlplane/v1/deployments.proto', 'controlplane.v1.Deployments');
export const runsProto = () => service<RunsTestClient>('tracing/v1/runs.proto', 'tracing.v1.Runs');
export const healthProto = () => service<HealthTestClient>('grpc/health/v1/health.proto', 'grpc.health.v1.Health');

export interface LogEntry {
  level: keyof GrpcLogger;
  obj: Record<string, unknown>;
  msg?: string;
}

export function recordingLogger(): GrpcLogger & { entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  const at =
    (level: keyof GrpcLogger) =>
    (obj: object, msg?: string): void => {
      entries.push({ level, obj: obj as Record<string, unknown>, msg });
    };
  return { entries, info: at('info'), warn: at('warn'), error: at('error'), debug: at('debug') };
}

/** Resolves once the signal aborts. */
export const aborted = (signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve())));

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `condition` holds, or after `ms`. */
export const until = async (condition: () => boolean, ms = 2_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!condition() && Date.now() < end) await sleep(10);
};

/** Serves `tracing.v1.Runs/StreamRuns` with `handler` on a free port, and a client for it (20 s deadline). */
export async function serveStreamRuns(handler: grpc.UntypedHandleCall): Promise<{ client: RunsTestClient; stop(): Promise<void> }> {
  const proto = runsProto();
  const server = await startGrpcServer({ host: '127.0.0.1', port: 0, services: [{ definition: proto.definition, handlers: { StreamRuns: handler } }] });
  const client = createClient(proto.Client, `127.0.0.1:${server.port}`, { defaultDeadlineMs: 20_000 });
  return {
    client,
    stop: async () => {
      client.close();
      await server.shutdown(1_000);
    },
  };
}
