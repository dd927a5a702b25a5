import * as grpc from '@grpc/grpc-js';
import { AuthenticationError, toGrpcStatus } from '@platform/errors';
import { openCallContext, type CallContext, type ServerCall } from './call-context';
import { hasBearerToken } from './internal-auth';
import type { GrpcLogger } from './logger';

/** How every handler of a service is wrapped. */
export interface WrapOptions {
  logger: GrpcLogger;
  /** When set, calls must carry `authorization: Bearer <token>`. */
  token?: string;
  /** Log level of successful calls (health checks are frequent and dull). */
  level?: 'info' | 'debug';
}

type StatusLike = { code: number; details: string };

// Callback-style handlers may answer with a plain `{code, details}`; pass those through as they are.
function isGrpcStatus(err: unknown): err is StatusLike {
  return typeof err === 'object' && err !== null && !(err instanceof Error) && Number.isInteger((err as StatusLike).code);
}

function statusFor(err: unknown, ctx: CallContext): StatusLike {
  if (isGrpcStatus(err)) return { code: err.code, details: String(err.details ?? '') };
  const { code, details, internal } = toGrpcStatus(err);
  if (internal) ctx.logger.error({ err, requestId: ctx.requestId, method: ctx.method }, 'gRPC handler failed');
  return { code, details };
}

/**
 * Wraps every method of a service: auth check, a context per call, one log line per call with its
 * request id, and thrown errors / rejected promises mapped through the platform's error table.
 */
export function wrapService(
  definition: grpc.ServiceDefinition,
  handlers: grpc.UntypedServiceImplementation,
  options: WrapOptions,
): grpc.UntypedServiceImplementation {
  const wrapped: grpc.UntypedServiceImplementation = {};
  for (const [name, method] of Object.entries(definition)) {
    const handler = handlers[name];
    if (!handler) continue; // grpc-js answers UNIMPLEMENTED
    if (method.requestStream) {
      // Not wrapped, so not authenticated either: refuse rather than serve them open.
      throw new Error(`${method.path}: client-streaming methods are not supported by startGrpcServer`);
    } else if (method.responseStream) {
      wrapped[name] = wrapServerStream(handler as grpc.handleServerStreamingCall<unknown, unknown>, options);
    } else {
      wrapped[name] = wrapUnary(handler as grpc.handleUnaryCall<unknown, unknown>, options);
    }
  }
  return wrapped;
}

function begin(call: ServerCall, options: WrapOptions): { ctx: CallContext; end(code: number): void } {
  const started = performance.now();
  const { ctx, close } = openCallContext(call, options.logger);
  let ended = false;
  const end = (code: number): void => {
    if (ended) return;
    ended = true;
    close();
    const entry = {
      requestId: ctx.requestId,
      method: ctx.method,
      code: grpc.status[code] ?? code,
      durationMs: Math.round(performance.now() - started),
    };
    if (code === grpc.status.OK) options.logger[options.level ?? 'info'](entry, 'gRPC call');
    else options.logger.info(entry, 'gRPC call failed');
  };
  call.once('cancelled', () => end(grpc.status.CANCELLED));
  return { ctx, end };
}

function unauthenticated(): AuthenticationError {
  return new AuthenticationError('Missing or invalid internal token');
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | undefined)?.then === 'function';
}

function wrapUnary(handler: grpc.handleUnaryCall<unknown, unknown>, options: WrapOptions): grpc.handleUnaryCall<unknown, unknown> {
  return (call, callback) => {
    const { ctx, end } = begin(call as ServerCall, options);
    let answered = false;
    const respond: grpc.sendUnaryData<unknown> = (err, value, trailer, flags) => {
      if (answered) return;
      answered = true;
      if (err) {
        const status = statusFor(err, ctx);
        end(status.code);
        callback(status, null, trailer, flags);
      } else {
        end(grpc.status.OK);
        callback(null, value, trailer, flags);
      }
    };
    if (options.token !== undefined && !hasBearerToken(call.metadata, options.token)) {
      return respond(unauthenticated() as unknown as grpc.ServerErrorResponse);
    }
    try {
      const result: unknown = handler(call, respond);
      if (isThenable(result)) result.then(undefined, (err: unknown) => respond(err as grpc.ServerErrorResponse));
    } catch (err) {
      respond(err as grpc.ServerErrorResponse);
    }
  };
}

function wrapServerStream(
  handler: grpc.handleServerStreamingCall<unknown, unknown>,
  options: WrapOptions,
): grpc.handleServerStreamingCall<unknown, unknown> {
  return (call) => {
    const { ctx, end } = begin(call as ServerCall, options);
    let failedWith: number | undefined;
    // Ending the stream (normally or after an error status) finishes the writable side.
    call.once('finish', () => end(failedWith ?? grpc.status.OK));
    const fail = (err: unknown): void => {
      const status = statusFor(err, ctx);
      failedWith = status.code;
      if (call.cancelled) return end(grpc.status.CANCELLED);
      // grpc-js's own 'error' listener turns this into the trailing status and ends the call.
      call.emit('error', status);
    };
    if (options.token !== undefined && !hasBearerToken(call.metadata, options.token)) return fail(unauthenticated());
    try {
      const result: unknown = handler(call);
      if (isThenable(result)) result.then(undefined, fail);
    } catch (err) {
      fail(err);
    }
  };
}
