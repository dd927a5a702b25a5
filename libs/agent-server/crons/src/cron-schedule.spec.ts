import { isTimeZone, nextRunAfter, scheduleProblem } from './cron-schedule';

const at = (iso: string) => new Date(iso);
const next = (schedule: string, after: string, options: { timezone?: string; endTime?: string } = {}) =>
  nextRunAfter(schedule, { after: at(after), timezone: options.timezone, endTime: options.endTime ? at(options.endTime) : undefined })?.toISOString() ?? null;

describe('cron schedules', () => {
  it('computes the next firing strictly after a time, in UTC by default', () => {
    expect(next('*/15 * * * *', '2026-01-01T10:07:00Z')).toBe('2026-01-01T10:15:00.000Z');
    expect(next('*/15 * * * *', '2026-01-01T10:15:00Z')).toBe('2026-01-01T10:30:00.000Z');
    expect(next('0 9 * * 1-5', '2026-01-02T09:00:00Z')).toBe('2026-01-05T09:00:00.000Z'); // Friday 09:00 → Monday
    expect(next('0 0 1 * *', '2026-01-31T23:59:59Z')).toBe('2026-02-01T00:00:00.000Z');
    expect(next('@daily', '2026-01-01T12:00:00Z')).toBe('2026-01-02T00:00:00.000Z');
    expect(next('30 * * * * *', '2026-01-01T00:00:00Z')).toBe('2026-01-01T00:00:30.000Z'); // leading seconds field
  });

  it('reads the schedule in its time zone, across daylight-saving changes', () => {
    // 09:00 in New York is 14:00 UTC in winter (EST) and 13:00 UTC from 8 March 2026 (EDT).
    expect(next('0 9 * * *', '2026-03-06T15:00:00Z', { timezone: 'America/New_York' })).toBe('2026-03-07T14:00:00.000Z');
    expect(next('0 9 * * *', '2026-03-07T15:00:00Z', { timezone: 'America/New_York' })).toBe('2026-03-08T13:00:00.000Z');
    // Midnight in Tokyo (UTC+9, no DST) is 15:00 UTC the day before.
    expect(next('0 0 * * *', '2026-06-01T16:00:00Z', { timezone: 'Asia/Tokyo' })).toBe('2026-06-02T15:00:00.000Z');
    // 02:30 does not exist in Paris on 29 March 2026 (02:00 → 03:00): that firing comes an hour later, at 03:30 CEST.
    expect(next('30 2 * * *', '2026-03-28T12:00:00Z', { timezone: 'Europe/Paris' })).toBe('2026-03-29T01:30:00.000Z');
    expect(next('30 2 * * *', '2026-03-29T01:30:00Z', { timezone: 'Europe/Paris' })).toBe('2026-03-30T00:30:00.000Z');
    // 02:30 happens twice on 25 October 2026 (03:00 → 02:00): it fires once, at the first.
    expect(next('30 2 * * *', '2026-10-24T12:00:00Z', { timezone: 'Europe/Paris' })).toBe('2026-10-25T00:30:00.000Z');
    expect(next('30 2 * * *', '2026-10-25T00:30:00Z', { timezone: 'Europe/Paris' })).toBe('2026-10-26T01:30:00.000Z');
  });

  it('stops at the end time (a firing exactly at it still counts)', () => {
    expect(next('0 0 * * *', '2026-01-01T00:00:00Z', { endTime: '2026-01-01T23:00:00Z' })).toBeNull();
    expect(next('0 0 * * *', '2026-01-01T00:00:00Z', { endTime: '2026-01-02T00:00:00Z' })).toBe('2026-01-02T00:00:00.000Z');
    expect(next('0 12 * * *', '2026-01-01T00:00:00Z', { endTime: '2026-01-05T00:00:00Z', timezone: 'Asia/Tokyo' })).toBe('2026-01-01T03:00:00.000Z');
  });

  it('refuses expressions it cannot schedule and names unknown time zones', () => {
    expect(scheduleProblem('*/5 * * * *')).toBeUndefined();
    expect(scheduleProblem(' 0 0 * * 0 ')).toBeUndefined();
    expect(scheduleProblem('@hourly')).toBeUndefined();
    expect(scheduleProblem('')).toMatch(/expected 5 fields/);
    expect(scheduleProblem('* * * *')).toMatch(/expected 5 fields/);
    expect(scheduleProblem('* * * * * * *')).toMatch(/expected 5 fields/);
    expect(scheduleProblem('61 * * * *')).toMatch(/Invalid cron schedule: .*61/);
    expect(scheduleProblem('0 0 30 2 *')).toMatch(/Invalid cron schedule/);
    expect(scheduleProblem('every day')).toMatch(/Invalid cron schedule/);
    expect(isTimeZone('Europe/Paris')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });
});
