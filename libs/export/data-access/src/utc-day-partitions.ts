const DAY_MS = 86_400_000;

export interface TimeWindow {
  start: Date;
  end: Date;
}

/**
 * Splits the half-open window [start, end) at UTC midnights: one partition per UTC day it touches, the first
 * and last clipped to the window. Empty when end <= start.
 */
export function utcDayPartitions(start: Date, end: Date): TimeWindow[] {
  const out: TimeWindow[] = [];
  let from = start.getTime();
  const to = end.getTime();
  while (from < to) {
    const nextMidnight = Math.floor(from / DAY_MS) * DAY_MS + DAY_MS;
    const until = Math.min(nextMidnight, to);
    out.push({ start: new Date(from), end: new Date(until) });
    from = until;
  }
  return out;
}
