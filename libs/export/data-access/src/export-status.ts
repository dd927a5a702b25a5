/** Export and export-run statuses as they travel on the wire (TitleCase). */
export const EXPORT_STATUSES = ['Created', 'Running', 'Completed', 'Failed', 'Cancelled', 'TimedOut', 'IntervalScheduled'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

/** Statuses nothing moves out of. */
export const FINAL_STATUSES: readonly ExportStatus[] = ['Completed', 'Failed', 'Cancelled', 'TimedOut'];

export function isFinalStatus(status: string): boolean {
  return (FINAL_STATUSES as readonly string[]).includes(status);
}

const BY_KEY = new Map(EXPORT_STATUSES.map((s) => [s.toLowerCase(), s]));

/** Accepts any case (`CANCELLED`, `cancelled`, `Cancelled`) and `TIMED_OUT`; undefined when unknown. */
export function parseExportStatus(input: string): ExportStatus | undefined {
  return BY_KEY.get(input.trim().toLowerCase().replace(/[_\s-]/g, ''));
}
