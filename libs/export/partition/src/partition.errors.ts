import { InputError, NotFoundError } from '@platform/errors';

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** An S3 operation failed. `destinationError`: the destination itself is wrong (credentials, bucket, endpoint). */
export class ObjectStoreError extends Error {
  constructor(
    message: string,
    readonly operation: string,
    readonly code: string,
    readonly destinationError: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ObjectStoreError';
  }
}

/** The stored object's size differs from the file uploaded. */
export class UploadVerificationError extends Error {
  constructor(key: string, expected: number, stored: number) {
    super(`Size check failed for ${key}: uploaded ${expected} bytes, HeadObject reports ${stored}`);
    this.name = 'UploadVerificationError';
  }
}

/** Reading runs from tracing failed. */
export class RunSourceError extends Error {
  constructor(cause: unknown) {
    super(`Reading runs failed: ${messageOf(cause)}`, { cause });
    this.name = 'RunSourceError';
  }
}

/** A call to the export service failed; the run's state there is unknown, so the job is handed back. */
export class ProgressServiceError extends Error {
  constructor(
    readonly call: string,
    cause: unknown,
  ) {
    super(`${call} failed: ${messageOf(cause)}`, { cause });
    this.name = 'ProgressServiceError';
  }
}

/**
 * The text and retry verdict of a failed attempt (spec: storage or destination errors are not retried;
 * interruptions, timeouts and processing errors are).
 */
export function describeFailure(err: unknown): { error: string; retryable: boolean } {
  if (err instanceof ObjectStoreError) return { error: err.message, retryable: !err.destinationError };
  // A filter the store cannot run, or a project that no longer exists, fails the same way every time.
  if (err instanceof RunSourceError && (err.cause instanceof InputError || err.cause instanceof NotFoundError)) {
    return { error: err.message, retryable: false };
  }
  if (err instanceof RunSourceError || err instanceof UploadVerificationError) return { error: err.message, retryable: true };
  return { error: `Export failed: ${messageOf(err)}`, retryable: true };
}
