import type * as grpc from '@grpc/grpc-js';
import { toPlatformError } from './client-errors';
import { callMetadata, defaultDeadlineOf } from './grpc-client';
import type { StreamInvoker, StreamMethodOf, StreamRequest, StreamResponse } from './method-types';

export interface StreamOptions {
  /** Time for the whole stream; default: the client's default deadline. Long reads set their own. */
  deadlineMs?: number;
  requestId?: string;
  metadata?: grpc.Metadata | Record<string, string>;
  /** Cancels the call; iteration then throws the signal's reason. */
  signal?: AbortSignal;
}

/**
 * Calls a server-streaming method and yields its messages. Reading is pulled by the consumer, so a
 * slow consumer slows the server (back-pressure); leaving the loop early cancels the call. A failed
 * call throws the platform error of its status.
 */
export async function* readStream<C extends grpc.Client, M extends StreamMethodOf<C>>(
  client: C,
  method: M,
  request: StreamRequest<C, M>,
  options: StreamOptions = {},
): AsyncGenerator<StreamResponse<C, M>, void, undefined> {
  const { signal } = options;
  if (signal?.aborted) throw signal.reason;
  const invoke = (client as unknown as Record<string, StreamInvoker>)[method];
  const call = invoke.call(client, request, callMetadata(options.requestId, options.metadata), {
    deadline: Date.now() + (options.deadlineMs ?? defaultDeadlineOf(client)),
  });
  const cancel = (): void => call.cancel();
  signal?.addEventListener('abort', cancel);
  let ended = false;
  try {
    for await (const message of call) yield message as StreamResponse<C, M>;
    ended = true;
  } catch (err) {
    ended = true;
    throw toPlatformError(err, signal);
  } finally {
    signal?.removeEventListener('abort', cancel);
    if (!ended) {
      // The consumer stopped early: cancel, and swallow the CANCELLED status that follows.
      call.on('error', () => undefined);
      call.cancel();
    }
  }
}
