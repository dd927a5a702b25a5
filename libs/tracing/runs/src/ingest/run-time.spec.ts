import { isoFromMicros, parseEpochMicros, parseRunTime } from './run-time';

describe('parseRunTime', () => {
  it.each([
    ['2024-05-01T12:00:00.123456Z', '2024-05-01T12:00:00.123456Z'],
    ['2024-05-01T12:00:00.123456', '2024-05-01T12:00:00.123456Z'],
    ['2024-05-01 12:00:00.1', '2024-05-01T12:00:00.100000Z'],
    ['2024-05-01T12:00:00Z', '2024-05-01T12:00:00.000000Z'],
    ['2024-05-01T14:30:00.000001+02:30', '2024-05-01T12:00:00.000001Z'],
    ['2024-05-01T07:00:00.5-0500', '2024-05-01T12:00:00.500000Z'],
    ['2024-05-01T12:00:00.123456789Z', '2024-05-01T12:00:00.123456Z'],
    ['2024-02-29T23:59:59.999999Z', '2024-02-29T23:59:59.999999Z'],
  ])('keeps microseconds of ISO text %s', (input, expected) => {
    expect(parseRunTime(input)).toBe(expected);
  });

  it('reads epoch milliseconds, fractional ones to the microsecond', () => {
    expect(parseRunTime(1714564800123)).toBe('2024-05-01T12:00:00.123000Z');
    expect(parseRunTime(1714564800123.456)).toBe('2024-05-01T12:00:00.123456Z');
  });

  it.each(['', 'yesterday', '2024-13-01T00:00:00Z', '2023-02-29T00:00:00Z', '2024-05-01T24:00:00Z', '2024-05-01T12:00:00+25:00', '1714564800123'])(
    'refuses %p',
    (input) => {
      expect(parseRunTime(input)).toBeUndefined();
    },
  );

  it('refuses non-finite and absurd numbers', () => {
    expect(parseRunTime(Number.NaN)).toBeUndefined();
    expect(parseRunTime(1e20)).toBeUndefined();
    expect(parseRunTime(true)).toBeUndefined();
  });

  it('round-trips through epoch microseconds', () => {
    const us = parseEpochMicros('1999-12-31T23:59:59.000007Z')!;
    expect(isoFromMicros(us)).toBe('1999-12-31T23:59:59.000007Z');
    expect(isoFromMicros(-1)).toBe('1969-12-31T23:59:59.999999Z');
  });
});
