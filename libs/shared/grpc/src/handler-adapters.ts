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

/** Options of {@link serverStream}. */
export interface ServerStreamOptions<Res> {
  /**
   * Called once for every message the source yields, when grpc-js no longer reads it: once its write has completed
   * (grpc-js serializes a message, copying its bytes into a frame of its own, just before writing it), once the call
   * has been cancelled or closed before that (grpc-js serializes nothing after), or at once for a message yielded
   * after the call was aborted. Lets a source reuse the buffers its messages view. A message still queued in
   * grpc-js' stream (up to its high-water mark of 16) has not been serialized yet: its buffers are still read.
   */
  released?: (message: Res) => void;
  /**
   * The source is not read on while this many messages are written but not released (default: only grpc-js' own
   * high-water mark of 16 holds it back). Bounds the messages, and the buffers they view, queued in grpc-js.
   */
  maxUnreleased?: number;
}

/**
 * Adapts an async generator to a grpc-js server-streaming handler: each yielded value is one
 * message. Writing waits for 'drain' when the client reads slowly, and when the client cancels (or
 * the deadline passes) the generator is stopped (its `finally` runs) at the next yield.
 */
export function serverStream<Req, Res>(
  fn: (request: Req, ctx: CallContext) => AsyncIterable<Res>,
  options: ServerStreamOptions<Res> = {},
): grpc.handleServerStreamingCall<Req, Res> {
  return (call) => {
    const ctx = callContext(call);
    const tracked = options.released !== undefined || options.maxUnreleased !== undefined;
    const writes = tracked ? releasingWrites(call, options, ctx.signal) : plainWrites(call, ctx.signal);
    return writeAll(fn(call.request, ctx), call, writes, ctx.signal);
  };
}

/**
 * How a stream's messages are handed to grpc-js: `write` as `call.write`, false when the source should wait for
 * `ready` before the next; `skip` for a message never written.
 */
interface MessageWrites<Res> {
  write(message: Res): boolean;
  ready(): Promise<void>;
  skip(message: Res): void;
}

function plainWrites<Res>(call: grpc.ServerWritableStream<unknown, Res>, signal: AbortSignal): MessageWrites<Res> {
  return { write: (message) => call.write(message), ready: () => drained(call, signal), skip: () => undefined };
}

/**
 * Writes that track each message until its release: its write callback (with or without an error), or, for all
 * those still pending, the call being cancelled or closed (after either, grpc-js serializes nothing).
 */
function releasingWrites<Res>(call: grpc.ServerWritableStream<unknown, Res>, options: ServerStreamOptions<Res>, signal: AbortSignal): MessageWrites<Res> {
  const { released = () => undefined, maxUnreleased = Infinity } = options;
  const pending = new Set<() => void>();
  let wake: (() => void) | undefined;
  const releaseAll = (): void => {
    for (const release of [...pending]) release();
    wake?.();
  };
  call.once('cancelled', releaseAll);
  call.once('close', releaseAll);
  const fewer = (): Promise<void> =>
    new Promise((resolve) => {
      const done = (): void => {
        wake = undefined;
        signal.removeEventListener('abort', done);
        resolve();
      };
      wake = done;
      signal.addEventListener('abort', done);
    });
  return {
    write: (message) => {
      const release = (): void => {
        if (!pending.delete(release)) return;
        released(message);
        if (pending.size < maxUnreleased) wake?.();
      };
      pending.add(release);
      return call.write(message, release) && pending.size < maxUnreleased;
    },
    ready: async () => {
      while (!signal.aborted && !call.destroyed) {
        if (call.writableNeedDrain) await drained(call, signal);
        else if (pending.size >= maxUnreleased) await fewer();
        else return;
      }
    },
    skip: released,
  };
}

async function writeAll<Res>(
  source: AsyncIterable<Res>,
  call: grpc.ServerWritableStream<unknown, Res>,
  writes: MessageWrites<Res>,
  signal: AbortSignal,
): Promise<void> {
  // Leaving the loop early calls the generator's return(), which runs its finally blocks.
  for await (const message of source) {
    if (signal.aborted) return writes.skip(message);
    if (!writes.write(message)) await writes.ready();
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
