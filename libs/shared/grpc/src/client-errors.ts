import type * as grpc from '@grpc/grpc-js';
import { InternalError, errorFromGrpcStatus } from '@platform/errors';

/** True for the error grpc-js gives a client when a call ends with a non-OK status. */
export function isServiceError(err: unknown): err is grpc.ServiceError {
  return err instanceof Error && Number.isInteger((err as grpc.ServiceError).code) && 'details' in err;
}

/**
 * The platform error for a failed call: the peer's status through the shared table, or the
 * caller's abort reason when the caller cancelled.
 */
export function toPlatformError(err: unknown, signal?: AbortSignal): unknown {
  if (signal?.aborted) return signal.reason;
  if (isServiceError(err)) return errorFromGrpcStatus(err.code, err.details);
  return err instanceof Error ? err : new InternalError(String(err));
}
