/** Stable, transport-neutral error codes. Each transport maps them once (see http-status.ts, grpc-status.ts). */
export type ErrorCode =
  | 'input'
  | 'validation'
  | 'authentication'
  | 'not_allowed'
  | 'not_found'
  | 'conflict'
  | 'too_many_requests'
  | 'unavailable'
  | 'deadline_exceeded'
  | 'not_implemented'
  | 'internal';

/** Base class of every error the platform raises on purpose. Domain code throws these, never HTTP or gRPC errors. */
export abstract class PlatformError extends Error {
  abstract readonly code: ErrorCode;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The request is malformed or asks for something impossible (400). */
export class InputError extends PlatformError {
  readonly code = 'input';
}

/** No valid credentials (401). */
export class AuthenticationError extends PlatformError {
  readonly code = 'authentication';
}

/** Valid credentials, but not for this resource (403). */
export class NotAllowedError extends PlatformError {
  readonly code = 'not_allowed';
}

/** The resource does not exist, or is not visible to the caller (404). */
export class NotFoundError extends PlatformError {
  readonly code = 'not_found';
}

/** The request conflicts with the current state, e.g. a duplicate name or a busy thread (409). */
export class ConflictError extends PlatformError {
  readonly code = 'conflict';
}

/** A limit was reached; try again later (429, with `Retry-After` in whole seconds when known). */
export class TooManyRequestsError extends PlatformError {
  readonly code = 'too_many_requests';
  /** When the caller may try again, in whole seconds (at least 1); answered as `Retry-After`. */
  readonly retryAfterSeconds?: number;
  constructor(message: string, options?: { cause?: unknown; retryAfterSeconds?: number }) {
    super(message, options);
    if (options?.retryAfterSeconds !== undefined) this.retryAfterSeconds = Math.max(1, Math.ceil(options.retryAfterSeconds));
  }
}

/** A dependency is down or the service is shutting down (503). */
export class UnavailableError extends PlatformError {
  readonly code = 'unavailable';
  /** How long a caller should wait before trying again (HTTP `Retry-After`). */
  readonly retryAfterSeconds: number = 1;
}

/**
 * A dependency this request needs (the database, the job bus…) cannot be reached right now: a lost or refused
 * connection, a server restarting. Retryable: the same request may succeed once the dependency is back. Its
 * message names the dependency (`"database unavailable"`); transports map it as every `unavailable` error (503
 * with `Retry-After`, gRPC UNAVAILABLE).
 */
export class ServiceUnavailableError extends UnavailableError {
  /** The dependency that is down, e.g. `database`. */
  readonly dependency: string;
  override readonly retryAfterSeconds: number;
  constructor(dependency: string, options?: { cause?: unknown; retryAfterSeconds?: number; message?: string }) {
    super(options?.message ?? `${dependency} unavailable`, options);
    this.dependency = dependency;
    this.retryAfterSeconds = options?.retryAfterSeconds ?? 1;
  }
}

/** A call ran past its deadline (504). */
export class DeadlineExceededError extends PlatformError {
  readonly code = 'deadline_exceeded';
}

/** This deployment does not offer what was asked for, though the API defines it (501). */
export class NotImplementedError extends PlatformError {
  readonly code = 'not_implemented';
}

/** A fault of ours, not the caller's (500). The message is logged, not shown. */
export class InternalError extends PlatformError {
  readonly code = 'internal';
}

export function isPlatformError(err: unknown): err is PlatformError {
  return err instanceof PlatformError;
}
