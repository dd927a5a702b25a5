import { InputError } from '@platform/errors';

// Postgres refuses some JSON that JavaScript accepts. Those are the caller's values, not our fault: an InputError
// (400), not a 500. The SQLSTATE sits in the driver adapter's error, which Prisma wraps.
const REFUSED: Record<string, string> = {
  '22P05': 'strings in a stored value may not contain \\u0000',
  '22003': 'a number in the value is out of range',
};

export function storeWriteError(err: unknown): unknown {
  const meta = JSON.stringify((err as { meta?: unknown } | undefined)?.meta ?? '');
  const code = Object.keys(REFUSED).find((sqlState) => meta.includes(`"${sqlState}"`));
  return code ? new InputError(`The value cannot be stored: ${REFUSED[code]}`) : err;
}
