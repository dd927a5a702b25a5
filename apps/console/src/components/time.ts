/** A time for tables: local, to the second. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'medium' });
}

/** Seconds between two times, for latencies. */
export function latency(start: string | null | undefined, end: string | null | undefined): string {
  if (!start || !end) return '—';
  const ms = new Date(end).getTime() - new Date(start).getTime();
  return Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : '—';
}
