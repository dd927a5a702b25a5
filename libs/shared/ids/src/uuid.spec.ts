import { randomUUID } from 'node:crypto';
import { isUuid } from './uuid';

describe('isUuid', () => {
  it('accepts canonical UUIDs of any version and case', () => {
    expect(isUuid(randomUUID())).toBe(true);
    expect(isUuid('0190F1C2-8F0E-7B3A-9C1D-2E3F4A5B6C7D')).toBe(true);
  });

  it.each(['', 'abc', '0190f1c28f0e7b3a9c1d2e3f4a5b6c7d', '{0190f1c2-8f0e-7b3a-9c1d-2e3f4a5b6c7d}', ' 0190f1c2-8f0e-7b3a-9c1d-2e3f4a5b6c7d'])(
    'rejects %p',
    (value) => expect(isUuid(value)).toBe(false),
  );
});
