import { ConflictError, NotFoundError } from '@platform/errors';

/** Messages to use instead of the generic ones. */
export interface PrismaErrorMessages {
  /** For a unique constraint violation (P2002). */
  conflict?: string;
  /** For a missing record (P2025). */
  notFound?: string;
}

interface KnownRequestError {
  code: string;
  meta?: Record<string, unknown>;
}

// Each service has its own generated client, hence its own error classes: match on shape, not class.
function isKnownRequestError(err: unknown): err is KnownRequestError {
  const code: unknown = err instanceof Error ? (err as Partial<KnownRequestError>).code : undefined;
  return typeof code === 'string' && /^P\d{4}$/.test(code);
}

function uniqueFields(meta: Record<string, unknown> | undefined): string | undefined {
  const target = meta?.['target'];
  if (Array.isArray(target)) return target.join(', ');
  if (typeof target === 'string') return target;
  // With driver adapters the fields come in the adapter's error.
  const cause = (meta?.['driverAdapterError'] as { cause?: { constraint?: { fields?: string[] } } } | undefined)?.cause;
  return cause?.constraint?.fields?.join(', ');
}

/**
 * Turns Prisma's P2002 (unique constraint) into a `ConflictError` and P2025 (record not found) into
 * a `NotFoundError`; returns any other error unchanged. Repositories use it as `throw mapPrismaError(err)`.
 */
export function mapPrismaError(err: unknown, messages: PrismaErrorMessages = {}): unknown {
  if (!isKnownRequestError(err)) return err;
  if (err.code === 'P2002') {
    const fields = uniqueFields(err.meta);
    const message = messages.conflict ?? `a record with the same ${fields ?? 'unique key'} already exists`;
    return new ConflictError(message, { cause: err });
  }
  if (err.code === 'P2025') {
    const cause = typeof err.meta?.['cause'] === 'string' ? err.meta['cause'] : undefined;
    return new NotFoundError(messages.notFound ?? cause ?? 'record not found', { cause: err });
  }
  return err;
}
