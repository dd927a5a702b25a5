import * as grpc from '@grpc/grpc-js';
import { bearerTokenInterceptor, defaultDeadlineInterceptor } from './client-interceptors';

/** Deadline of a call that sets none. */
export const DEFAULT_DEADLINE_MS = 10_000;

// Batches of runs with their inputs and outputs outgrow grpc-js's 4 MiB default.
const MAX_RECEIVE_BYTES = 64 * 1024 * 1024;

export interface ClientOptions {
  /** Internal auth token sent as `authorization: Bearer <token>` on every call. */
  token?: string;
  /** Deadline of calls that set none; default 10 s. */
  defaultDeadlineMs?: number;
  /** grpc-js channel options, e.g. `grpc.max_receive_message_length`. */
  channelOptions?: grpc.ChannelOptions;
}

/** A generated client constructor, e.g. `deploymentsService().Client`. */
export type ClientConstructor<C extends grpc.Client> = new (
  address: string,
  credentials: grpc.ChannelCredentials,
  options?: grpc.ClientOptions,
) => C;

const defaultDeadlines = new WeakMap<grpc.Client, number>();

/**
 * Creates a client on insecure credentials (inside the cluster) whose every call has a deadline and,
 * when a token is given, the internal auth header. `address` is `host:port`.
 */
export function createClient<C extends grpc.Client>(Ctor: ClientConstructor<C>, address: string, options: ClientOptions = {}): C {
  const deadlineMs = options.defaultDeadlineMs ?? DEFAULT_DEADLINE_MS;
  const interceptors = [defaultDeadlineInterceptor(deadlineMs)];
  if (options.token !== undefined) interceptors.push(bearerTokenInterceptor(options.token));
  const client = new Ctor(address, grpc.credentials.createInsecure(), {
    'grpc.max_receive_message_length': MAX_RECEIVE_BYTES,
    ...options.channelOptions,
    interceptors,
  });
  defaultDeadlines.set(client, deadlineMs);
  return client;
}

/** The default deadline a client was created with (10 s for clients not made by `createClient`). */
export function defaultDeadlineOf(client: grpc.Client): number {
  return defaultDeadlines.get(client) ?? DEFAULT_DEADLINE_MS;
}

/** Call metadata: the request id (propagated for logs) plus any extra entries. */
export function callMetadata(requestId?: string, extra?: grpc.Metadata | Record<string, string>): grpc.Metadata {
  const metadata = extra instanceof grpc.Metadata ? extra.clone() : new grpc.Metadata();
  if (extra && !(extra instanceof grpc.Metadata)) {
    for (const [key, value] of Object.entries(extra)) metadata.set(key, value);
  }
  if (requestId) metadata.set('x-request-id', requestId);
  return metadata;
}
