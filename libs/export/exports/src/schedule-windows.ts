import type { TimeWindow } from '@platform/export-data-access';

const HOUR_MS = 3_600_000;

/** Window k (from 1) of a schedule: [start + (k-1)·h, start + k·h). */
export function scheduleWindow(start: Date, intervalHours: number, k: number): TimeWindow {
  const size = intervalHours * HOUR_MS;
  return { start: new Date(start.getTime() + (k - 1) * size), end: new Date(start.getTime() + k * size) };
}

/**
 * The highest window number whose export is due at `now`: window k is spawned at its end plus the spawn delay.
 * 0 when none is due yet.
 */
export function lastDueWindow(start: Date, intervalHours: number, spawnDelayMs: number, now: Date): number {
  const size = intervalHours * HOUR_MS;
  const elapsed = now.getTime() - spawnDelayMs - start.getTime();
  return elapsed < size ? 0 : Math.floor(elapsed / size);
}
