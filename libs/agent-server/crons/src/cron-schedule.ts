import { CronExpressionParser } from 'cron-parser';

const ALIASES = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@hourly']);

/**
 * Why a cron expression is refused, or undefined when it is fine: five fields (minute hour day-of-month month
 * day-of-week), six with a leading seconds field, or one of @yearly @annually @monthly @weekly @daily @hourly.
 */
export function scheduleProblem(schedule: string): string | undefined {
  const text = schedule.trim();
  if (ALIASES.has(text.toLowerCase())) return undefined;
  const fields = text.split(/\s+/).filter(Boolean).length;
  if (fields !== 5 && fields !== 6) return 'Invalid cron schedule: expected 5 fields (minute hour day month weekday), or 6 with leading seconds';
  try {
    const expression = CronExpressionParser.parse(text, { tz: 'UTC' });
    expression.next();
    return undefined;
  } catch (err) {
    return `Invalid cron schedule: ${err instanceof Error ? err.message : String(err)}`;
  }
}

/** True for an IANA time zone this runtime knows (e.g. `Europe/Paris`, `UTC`). */
export function isTimeZone(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

/**
 * The first time strictly after `after` that `schedule` fires, read in `timezone` (default UTC), or null when
 * there is none up to `endTime`. Missed firings are not caught up: the next run is always after `after`.
 */
export function nextRunAfter(schedule: string, options: { after: Date; timezone?: string | null; endTime?: Date | null }): Date | null {
  const expression = CronExpressionParser.parse(schedule.trim(), {
    currentDate: options.after,
    tz: options.timezone ?? 'UTC',
    ...(options.endTime ? { endDate: options.endTime } : {}),
  });
  try {
    return expression.next().toDate();
  } catch (err) {
    // cron-parser signals "nothing before endDate" by throwing.
    if (options.endTime && err instanceof Error && /time span/i.test(err.message)) return null;
    throw err;
  }
}
