import { a2aVersionOf } from './a2a-version';

describe('a2aVersionOf', () => {
  it('reads 0.3 from no header, 1.0 from any 1.x, and nothing else', () => {
    expect(a2aVersionOf(undefined)).toBe('0.3');
    expect(a2aVersionOf('  ')).toBe('0.3');
    expect(a2aVersionOf('0.3')).toBe('0.3');
    expect(a2aVersionOf('0.3.0')).toBe('0.3');
    expect(a2aVersionOf('1.0')).toBe('1.0');
    expect(a2aVersionOf('1')).toBe('1.0');
    expect(a2aVersionOf('1.2.3')).toBe('1.0');
    for (const other of ['0.2', '2.0', 'latest', '1.x', '1.0-beta']) expect(a2aVersionOf(other)).toBeUndefined();
  });
});
