import { dateToMicros, isoToMicros, microsToDate, microsToIso } from './time-micros';

describe('epoch microseconds', () => {
  it('keeps microseconds through ISO and back', () => {
    expect(isoToMicros('2024-05-01T12:00:00.123456Z')).toBe('1714564800123456');
    expect(microsToIso('1714564800123456')).toBe('2024-05-01T12:00:00.123456Z');
  });

  it('reads times without a zone as UTC, with offsets, and with fewer or more digits', () => {
    expect(isoToMicros('2024-05-01T12:00:00.1')).toBe('1714564800100000');
    expect(isoToMicros('2024-05-01T14:00:00+02:00')).toBe('1714564800000000');
    expect(isoToMicros('2024-05-01T12:00:00.123456789Z')).toBe('1714564800123456');
  });

  it('converts Dates and times before 1970', () => {
    expect(dateToMicros(new Date('2024-05-01T12:00:00.5Z'))).toBe('1714564800500000');
    expect(microsToIso(-1)).toBe('1969-12-31T23:59:59.999999Z');
    expect(microsToDate('1714564800123456').toISOString()).toBe('2024-05-01T12:00:00.123Z');
  });

  it('rejects what is not a time', () => {
    expect(() => isoToMicros('yesterday')).toThrow(RangeError);
  });
});
