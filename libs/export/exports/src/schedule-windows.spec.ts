import { lastDueWindow, scheduleWindow } from './schedule-windows';

const t = (iso: string) => new Date(iso);
const iso = (w: { start: Date; end: Date }) => [w.start.toISOString(), w.end.toISOString()];

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
