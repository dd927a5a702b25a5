import type * as grpc from '@grpc/grpc-js';
import { isRetryableGrpcCode } from '@platform/errors';
import { isServiceError, toPlatformError } from './client-errors';
import { callMetadata, defaultDeadlineOf } from './grpc-client';
import type { UnaryInvoker, UnaryMethodOf, UnaryRequest, UnaryResponse } from './method-types';

export interface CallOptions {
  /** Time for the whole call, retries included; default: the client's default deadline. */
  deadlineMs?: number;
  /** Propagated as `x-request-id` so both sides log the same id. */
  requestId?: string;
  /** Extra attempts after a retryable status (UNAVAILABLE, RESOURCE_EXHAUSTED); default 0. Only for idempotent calls. */
  retries?: number;
  metadata?: grpc.Metadata | Record<string, string>;
  /** Cancels the call; the promise then rejects with the signal's reason. */
  signal?: AbortSignal;
}

const BACKOFF_MS = 50;

function backoff(attempt: number): number {
  const base = BACKOFF_MS * 2 ** attempt;
  return base / 2 + Math.random() * (base / 2);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done);
  });
}

function attemptCall<C extends grpc.Client>(client: C, method: string, request: unknown, deadline: number, options: CallOptions) {
  return new Promise<unknown>((resolve, reject) => {
    const invoke = (client as unknown as Record<string, UnaryInvoker>)[method];
    const call = invoke.call(client, request, callMetadata(options.requestId, options.metadata), { deadline }, (err, res) =>
      err ? reject(err) : resolve(res),
    );
    const cancel = (): void => call.cancel();
    options.signal?.addEventListener('abort', cancel);
    call.on('status', () => options.signal?.removeEventListener('abort', cancel));
  });
}

/**
 * Calls a unary method and resolves with its response. Always sets a deadline; retries only
 * retryable codes, with a small backoff, within that deadline; rejects with the platform error of
 * the status (NOT_FOUND → NotFoundError, DEADLINE_EXCEEDED → DeadlineExceededError, ...).
 */
export async function callUnary<C extends grpc.Client, M extends UnaryMethodOf<C>>(
  client: C,
  method: M,
  request: UnaryRequest<C, M>,
  options: CallOptions = {},
): Promise<UnaryResponse<C, M>> {
  const deadline = Date.now() + (options.deadlineMs ?? defaultDeadlineOf(client));
  const retries = options.retries ?? 0;
  for (let attempt = 0; ; attempt++) {
    if (options.signal?.aborted) throw options.signal.reason;
    try {
      return (await attemptCall(client, method, request, deadline, options)) as UnaryResponse<C, M>;
    } catch (err) {
      const delay = backoff(attempt);
      const retry =
        attempt < retries && isServiceError(err) && isRetryableGrpcCode(err.code) && Date.now() + delay < deadline;
      if (!retry || options.signal?.aborted) throw toPlatformError(err, options.signal);
      await sleep(delay, options.signal);
    }
  }
}
