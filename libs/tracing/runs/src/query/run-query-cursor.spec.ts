import { InputError } from '@platform/errors';
import { decodeRunQueryCursor, encodeRunQueryCursor } from './run-query-cursor';

describe('run query cursor', () => {
  it('round-trips (start time µs, id) through an opaque url-safe token', () => {
    const cursor = { startTimeUs: '1714564800123456', id: '0190f1c2-8f0e-7b3a-9c1d-2e3f4a5b6c7d' };
    const token = encodeRunQueryCursor(cursor);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeRunQueryCursor(token)).toEqual(cursor);
  });

  it.each(['', 'garbage', Buffer.from('1,2').toString('base64url'), Buffer.from('abc,0190f1c2-8f0e-7b3a-9c1d-2e3f4a5b6c7d').toString('base64url')])(
    'refuses %p with a 400',
    (token) => {
      expect(() => decodeRunQueryCursor(token)).toThrow(InputError);
    },
  );
});
