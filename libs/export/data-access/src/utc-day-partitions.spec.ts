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
