import { lastDueWindow, scheduleWindow } from './schedule-windows';
import { utcDayPartitions } from './utc-day-partitions';

const t = (iso: string) => new Date(iso);
const iso = (w: { start: Date; end: Date }) => [w.start.toISOString(), w.end.toISOString()];

describe('utcDayPartitions', () => {
  it('splits a window at UTC midnights, clipping the first and last day (half-open)', () => {
    expect(utcDayPartitions(t('2024-05-01T13:00:00Z'), t('2024-05-03T06:30:00Z')).map(iso)).toEqual([
      ['2024-05-01T13:00:00.000Z', '2024-05-02T00:00:00.000Z'],
      ['2024-05-02T00:00:00.000Z', '2024-05-03T00:00:00.000Z'],
      ['2024-05-03T00:00:00.000Z', '2024-05-03T06:30:00.000Z'],
    ]);
  });

  it('gives exactly one partition per whole day and none for an end on midnight', () => {
    expect(utcDayPartitions(t('2024-05-01T00:00:00Z'), t('2024-05-03T00:00:00Z')).map(iso)).toEqual([
      ['2024-05-01T00:00:00.000Z', '2024-05-02T00:00:00.000Z'],
      ['2024-05-02T00:00:00.000Z', '2024-05-03T00:00:00.000Z'],
    ]);
  });

  it('splits on UTC days whatever the input offset', () => {
    const parts = utcDayPartitions(t('2024-05-01T23:00:00-02:00'), t('2024-05-03T03:00:00+02:00'));
    expect(parts.map(iso)).toEqual([['2024-05-02T01:00:00.000Z', '2024-05-03T00:00:00.000Z'], ['2024-05-03T00:00:00.000Z', '2024-05-03T01:00:00.000Z']]);
  });

  it('is empty for an empty or inverted window, and one partition inside a day', () => {
    expect(utcDayPartitions(t('2024-05-01T00:00:00Z'), t('2024-05-01T00:00:00Z'))).toEqual([]);
    expect(utcDayPartitions(t('2024-05-02T00:00:00Z'), t('2024-05-01T00:00:00Z'))).toEqual([]);
    expect(utcDayPartitions(t('2024-05-01T01:00:00Z'), t('2024-05-01T02:00:00Z'))).toHaveLength(1);
  });

  it('covers leap days', () => {
    expect(utcDayPartitions(t('2024-02-28T00:00:00Z'), t('2024-03-01T00:00:00Z'))).toHaveLength(2);
  });
});

describe('schedule windows', () => {
  const start = t('2024-05-01T00:00:00Z');

  it('window k covers [start + (k-1)h, start + kh)', () => {
    expect(iso(scheduleWindow(start, 6, 1))).toEqual(['2024-05-01T00:00:00.000Z', '2024-05-01T06:00:00.000Z']);
    expect(iso(scheduleWindow(start, 6, 3))).toEqual(['2024-05-01T12:00:00.000Z', '2024-05-01T18:00:00.000Z']);
    expect(iso(scheduleWindow(start, 168, 2))).toEqual(['2024-05-08T00:00:00.000Z', '2024-05-15T00:00:00.000Z']);
  });

  it('a window is due at its end plus the spawn delay', () => {
    const delay = 10 * 60_000;
    expect(lastDueWindow(start, 1, delay, t('2024-05-01T01:09:59.999Z'))).toBe(0);
    expect(lastDueWindow(start, 1, delay, t('2024-05-01T01:10:00Z'))).toBe(1);
    expect(lastDueWindow(start, 1, delay, t('2024-05-01T03:10:00Z'))).toBe(3);
    expect(lastDueWindow(start, 1, delay, t('2024-04-30T00:00:00Z'))).toBe(0);
  });
});
