import type { PGlite } from '@electric-sql/pglite';
import type { SqlDriverAdapterFactory } from '@prisma/client/runtime/client';
import { PrismaPGlite } from 'pglite-prisma-adapter';

type ErrorPayload = { kind: string; code?: string; message?: string; detail?: string; column?: string };

const keyFields = (detail: string | undefined) => detail?.match(/Key \(([^)]+)\)/)?.[1]?.split(', ');

// The subset of @prisma/adapter-pg's error conversion that Prisma turns into P2002/P2011/P2003/P2034/….
// pglite-prisma-adapter reports every database error as kind "postgres", so without this a unique
// violation on PGlite would reach the caller as a raw DriverAdapterError instead of P2002.
function toPrismaKind(payload: ErrorPayload): object | undefined {
  const original = { originalCode: payload.code, originalMessage: payload.message };
  const fields = keyFields(payload.detail);
  switch (payload.code) {
    case '23505':
      return { ...original, kind: 'UniqueConstraintViolation', constraint: fields && { fields } };
    case '23502':
      return { ...original, kind: 'NullConstraintViolation', constraint: fields && { fields } };
    case '23503':
      return { ...original, kind: 'ForeignKeyConstraintViolation', constraint: payload.column && { fields: [payload.column] } };
    case '40001':
      return { ...original, kind: 'TransactionWriteConflict' };
    case '22001':
      return { ...original, kind: 'LengthMismatch', column: payload.column };
    case '22003':
      return { ...original, kind: 'ValueOutOfRange', cause: payload.message };
    default:
      return undefined;
  }
}

function mapError(err: unknown): unknown {
  const payload = err instanceof Error && err.name === 'DriverAdapterError' ? (err.cause as ErrorPayload) : undefined;
  const mapped = payload?.kind === 'postgres' ? toPrismaKind(payload) : undefined;
  if (mapped) (err as Error).cause = mapped;
  return err;
}

const wrapsResult = new Set<PropertyKey>(['connect', 'connectToShadowDb', 'startTransaction']);
const runsQueries = new Set<PropertyKey>(['queryRaw', 'executeRaw']);

type Query = { sql: string; args: unknown[]; argTypes?: ({ scalarType?: string } | undefined)[] };

// Prisma 6.19 hands Bytes arguments to adapters as base64 strings (or byte arrays), as @prisma/adapter-pg
// expects; pglite-prisma-adapter 0.6 passes them on unchanged and PGlite rejects anything but a Uint8Array.
function withBytesArgs(query: Query): Query {
  if (!query.argTypes?.some((type) => type?.scalarType === 'bytes')) return query;
  const args = query.args.map((arg, i) => {
    if (query.argTypes?.[i]?.scalarType !== 'bytes') return arg;
    if (typeof arg === 'string') return Buffer.from(arg, 'base64');
    return Array.isArray(arg) ? Buffer.from(arg as number[]) : arg;
  });
  return { ...query, args };
}

/**
 * Resolves after the event loop has turned once (timers, I/O). PGlite answers a statement without any I/O, so a chain
 * of statements (a run writing its checkpoints and events) would otherwise hold the process until it ends: no request
 * served, no stream opened meanwhile. So the caller of a statement on PGlite goes on only after such a turn, as one
 * on Postgres goes on after its socket answered; the statement itself still runs when issued, in the order issued.
 */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

// Wraps every method so rejected promises carry mapped errors, and statements answer on a turn of their own (see
// nextTurn); the adapters and transactions it hands out (connect, startTransaction) are wrapped the same way.
function withMappedErrors<T extends object>(target: T): T {
  return new Proxy(target, {
    get(obj, prop) {
      const value: unknown = Reflect.get(obj, prop, obj);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (runsQueries.has(prop) && args[0]) args[0] = withBytesArgs(args[0] as Query);
        const result: unknown = value.apply(obj, args);
        if (!(result instanceof Promise)) return result;
        const settled = runsQueries.has(prop) ? result.finally(nextTurn) : result;
        return settled.then(
          (resolved: unknown) => (wrapsResult.has(prop) ? withMappedErrors(resolved as object) : resolved),
          (err: unknown) => {
            throw mapError(err);
          },
        );
      };
    },
  });
}

/**
 * The PGlite driver adapter for Prisma, with database errors mapped and Bytes arguments converted as on Postgres.
 * pglite-prisma-adapter 0.6 is typed against an older @prisma/driver-adapter-utils than Prisma 6.19;
 * the runtime contract is the same (it ignores the newer argument type details), hence the cast.
 */
export function createPgliteAdapter(pglite: PGlite): SqlDriverAdapterFactory {
  const inner = new PrismaPGlite(pglite) as unknown as SqlDriverAdapterFactory;
  return withMappedErrors(inner);
}
