import { satisfies } from './version-range';

describe('satisfies', () => {
  it.each([
    ['1.7.3', '^1.7.0', true],
    ['1.7.3', '^1.8.0', false],
    ['2.0.0', '^1.7.0', false],
    ['0.3.5', '^0.3.1', true],
    ['0.4.0', '^0.3.1', false],
    ['1.2.9', '~1.2.3', true],
    ['1.3.0', '~1.2.3', false],
    ['4.6.7', '>=3.0.0 <5', true],
    ['5.0.0', '>=3.0.0 <5', false],
    ['1.4.0', '1.x', true],
    ['2.0.0', '1.x || 2.x', true],
    ['1.4.0', '1.2.0 - 1.5.0', true],
    ['1.6.0', '1.2.0 - 1.5.0', false],
    ['1.4.0', '*', true],
    ['1.4.0', '1.4.0', true],
    ['1.4.1', '1.4.0', false],
    ['1.4.0', 'file:../x', false],
    ['1.4.0', 'npm:other@1', false],
    ['1.4.0', 'latest', true],
  ])('%s in %s → %s', (version, range, expected) => expect(satisfies(version, range)).toBe(expected));
});
