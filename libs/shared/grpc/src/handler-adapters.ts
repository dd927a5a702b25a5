import type * as grpc from '@grpc/grpc-js';
import { callContext, type CallContext } from './call-context';

/**
 * Adapts an async function to a grpc-js unary handler. A thrown error (a platform error, or anything
 * else as an opaque INTERNAL) becomes the call's status through the wrapper of `startGrpcServer`.
 */
export function unary<Req, Res>(
  fn: (request: Req, ctx: CallContext) => Promise<Res> | Res,
): grpc.handleUnaryCall<Req, Res> {
  return (call, callback) => {
    const ctx = callContext(call);
    // Returned (despite grpc-js's `void`) so the server wrapper sees the outcome too.
    return (async () => fn(call.request, ctx))().then(
      (response) => callback(null, response),
      (err: unknown) => callback(err as grpc.ServerErrorResponse),
    );
  };
}

/**
 * Adapts an async generator to a grpc-js server-streaming handler: each yielded value is one
 * message. Writing waits for 'drain' when the client reads slowly, and when the client cancels (or
 * the deadline passes) the generator is stopped (its `finally` runs) at the next yield.
 */
export function serverStream<Req, Res>(
  fn: (request: Req, ctx: CallContext) => AsyncIterable<Res>,
): grpc.handleServerStreamingCall<Req, Res> {
  return (call) => {
    const ctx = callContext(call);
    return writeAll(fn(call.request, ctx), call, ctx.signal);
  };
}

async function writeAll<Res>(
  source: AsyncIterable<Res>,
  call: grpc.ServerWritableStream<unknown, Res>,
  signal: AbortSignal,
): Promise<void> {
  // Leaving the loop early calls the generator's return(), which runs its finally blocks.
  for await (const message of source) {
    if (signal.aborted) return;
    if (!call.write(message)) await drained(call, signal);
    if (signal.aborted) return;
  }
  call.end();
}

function drained(call: grpc.ServerWritableStream<unknown, unknown>, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      call.off('drain', done);
      call.off('close', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    call.on('drain', done);
    call.on('close', done);
    signal.addEventListener('abort', done);
  });
}
