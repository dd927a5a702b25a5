import { randomUUID } from 'node:crypto';
import type * as grpc from '@grpc/grpc-js';
import { silentLogger, type GrpcLogger } from './logger';

/** What a handler knows about the call it serves. */
export interface CallContext {
  /** Full method path, e.g. `/controlplane.v1.Deployments/ResolveDeployment`. */
  method: string;
  /** `x-request-id` from the caller's metadata, or a fresh UUID. */
  requestId: string;
  metadata: grpc.Metadata;
  /** The caller's deadline, if it set one. */
  deadline: Date | undefined;
  /** Aborted when the caller cancels or the deadline passes: stop work and stop yielding. */
  signal: AbortSignal;
  logger: GrpcLogger;
}

/** The server-side call objects grpc-js hands to handlers (unary and streaming). */
export type ServerCall = (grpc.ServerUnaryCall<unknown, unknown> | grpc.ServerWritableStream<unknown, unknown>) & {
  getPath(): string;
};

const contexts = new WeakMap<object, CallContext>();

/** Reads the request id a caller propagates in metadata. */
export function requestIdOf(metadata: grpc.Metadata): string | undefined {
  const value = metadata.get('x-request-id')[0];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

function deadlineOf(call: ServerCall): Date | undefined {
  const deadline = call.getDeadline();
  const ms = deadline instanceof Date ? deadline.getTime() : deadline;
  return Number.isFinite(ms) ? new Date(ms) : undefined;
}

/**
 * Opens the context of a call; `close` releases its deadline timer once the call has ended.
 * Used by the server wrapper (see `startGrpcServer`), which closes it when the call completes.
 */
export function openCallContext(call: ServerCall, logger: GrpcLogger): { ctx: CallContext; close(): void } {
  const controller = new AbortController();
  const deadline = deadlineOf(call);
  const abort = (): void => controller.abort(new Error('Call cancelled or past its deadline'));
  // grpc-js answers DEADLINE_EXCEEDED itself but does not tell the handler; this timer does.
  const timer = deadline ? setTimeout(abort, Math.max(0, deadline.getTime() - Date.now())) : undefined;
  timer?.unref();
  call.once('cancelled', abort);
  const ctx: CallContext = {
    method: call.getPath(),
    requestId: requestIdOf(call.metadata) ?? randomUUID(),
    metadata: call.metadata,
    deadline,
    signal: controller.signal,
    logger,
  };
  contexts.set(call, ctx);
  return { ctx, close: () => clearTimeout(timer) };
}

/** The context of a call; opened here (with a silent logger) if the server wrapper did not. */
export function callContext(call: ServerCall): CallContext {
  return contexts.get(call) ?? openCallContext(call, silentLogger).ctx;
}
