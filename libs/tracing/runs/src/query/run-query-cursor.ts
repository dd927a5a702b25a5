import { InputError } from '@platform/errors';
import { isUuid } from '@platform/ids';
import type { RunQueryCursor } from './run-query.types';

const MICROS = /^-?\d{1,19}$/;

/** The opaque `cursors.next` token: base64url of `<start_time µs>,<id>`. */
export function encodeRunQueryCursor(cursor: RunQueryCursor): string {
  return Buffer.from(`${cursor.startTimeUs},${cursor.id}`).toString('base64url');
}

/** Reads a token made by {@link encodeRunQueryCursor}; anything else is a 400. */
export function decodeRunQueryCursor(token: string): RunQueryCursor {
  const [startTimeUs, id, ...rest] = Buffer.from(token, 'base64url').toString('utf8').split(',');
  if (rest.length || !MICROS.test(startTimeUs ?? '') || !isUuid(id ?? '')) throw new InputError('Invalid cursor');
  return { startTimeUs, id };
}
