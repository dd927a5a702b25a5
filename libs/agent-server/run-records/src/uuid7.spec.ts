import { isUuid } from '@platform/ids';
import { uuid7 } from './uuid7';

describe('uuid7', () => {
  it('is a version-7 UUID whose first 48 bits are the time', () => {
    const id = uuid7(0x0123456789ab);
    expect(isUuid(id)).toBe(true);
    expect(id.slice(0, 13)).toBe('01234567-89ab');
    expect(id[14]).toBe('7');
    expect(['8', '9', 'a', 'b']).toContain(id[19]);
  });

  it('sorts in creation order within one millisecond', () => {
    const ids = Array.from({ length: 100 }, () => uuid7(Date.now()));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(100);
  });
});
