import { createError } from './create-error';
import { isPlatformError, type ErrorCode, type PlatformError } from './platform-errors';

/** gRPC status codes (numbers from the gRPC spec), so this lib needs no gRPC dependency. */
export const GrpcCode = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const;

/** The one table from error codes to gRPC statuses. */
export const GRPC_STATUS: Record<ErrorCode, number> = {
  input: GrpcCode.INVALID_ARGUMENT,
  validation: GrpcCode.INVALID_ARGUMENT,
  authentication: GrpcCode.UNAUTHENTICATED,
  not_allowed: GrpcCode.PERMISSION_DENIED,
  not_found: GrpcCode.NOT_FOUND,
  conflict: GrpcCode.ALREADY_EXISTS,
  too_many_requests: GrpcCode.RESOURCE_EXHAUSTED,
  unavailable: GrpcCode.UNAVAILABLE,
  deadline_exceeded: GrpcCode.DEADLINE_EXCEEDED,
  not_implemented: GrpcCode.UNIMPLEMENTED,
  internal: GrpcCode.INTERNAL,
};

// Codes a peer may send that are not in the table above.
const EXTRA_CODES: Record<number, ErrorCode> = {
  [GrpcCode.CANCELLED]: 'unavailable',
  [GrpcCode.FAILED_PRECONDITION]: 'conflict',
  [GrpcCode.ABORTED]: 'conflict',
  [GrpcCode.OUT_OF_RANGE]: 'input',
};

/** Status and message a gRPC server returns for a thrown value; unknown errors become an opaque INTERNAL. */
export function toGrpcStatus(err: unknown): { code: number; details: string; internal: boolean } {
  if (isPlatformError(err) && err.code !== 'internal') {
    return { code: GRPC_STATUS[err.code], details: err.message, internal: false };
  }
  return { code: GrpcCode.INTERNAL, details: 'Internal error', internal: true };
}

/** Turns a gRPC status received from a peer back into the platform error (and so, at the edge, an HTTP status). */
export function errorFromGrpcStatus(code: number, details: string): PlatformError {
  const fromTable = (Object.entries(GRPC_STATUS) as [ErrorCode, number][]).find(([, c]) => c === code)?.[0];
  return createError(fromTable ?? EXTRA_CODES[code] ?? 'internal', details);
}

/** Codes worth retrying on an idempotent call. */
export function isRetryableGrpcCode(code: number): boolean {
  return code === GrpcCode.UNAVAILABLE || code === GrpcCode.RESOURCE_EXHAUSTED;
}
