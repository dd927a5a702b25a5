// SDKs send times with microseconds, and JS Date keeps only milliseconds: times are parsed here into epoch
// microseconds and written to SQL as ISO text with all six fractional digits (cast `::timestamptz` there).

const ISO = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:[.,](\d{1,9}))?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

/** Earliest and latest times accepted (years 1 to 9999, as Postgres and ISO 8601 render them without signs). */
const MIN_US = Date.UTC(1, 0, 1) * 1000;
const MAX_US = Date.UTC(9999, 11, 31, 23, 59, 59, 999) * 1000 + 999;

function offsetMinutes(zone: string | undefined): number {
  if (!zone || zone === 'Z' || zone === 'z') return 0;
  const sign = zone[0] === '-' ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
  if (hours > 23 || minutes > 59) return NaN;
  return sign * (hours * 60 + minutes);
}

function fromIso(text: string): number | undefined {
  const m = ISO.exec(text.trim());
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  const fraction = (m[7] ?? '').padEnd(6, '0').slice(0, 6);
  const offset = offsetMinutes(m[8]);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59 || Number.isNaN(offset)) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  // Rejects impossible dates (Feb 30) that Date would roll over into the next month.
  if (date.getUTCDate() !== day || date.getUTCMonth() !== month - 1) return undefined;
  return (date.getTime() - offset * 60_000) * 1000 + Number(fraction);
}

/**
 * Parses a run time: an ISO 8601 string with up to 6 fractional digits (more are truncated), with or without a zone
 * (none = UTC), or epoch milliseconds (a number, possibly fractional). Returns epoch microseconds, or undefined when
 * the value is not a time.
 */
export function parseEpochMicros(value: unknown): number | undefined {
  let micros: number | undefined;
  if (typeof value === 'number') micros = Number.isFinite(value) ? Math.round(value * 1000) : undefined;
  else if (typeof value === 'string') micros = fromIso(value);
  if (micros === undefined || micros < MIN_US || micros > MAX_US) return undefined;
  return micros;
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** Epoch microseconds as `YYYY-MM-DDTHH:MM:SS.ffffffZ`. */
export function isoFromMicros(micros: number): string {
  const ms = Math.floor(micros / 1000);
  const date = new Date(ms);
  const us = micros - ms * 1000;
  return (
    `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCDate(), 2)}` +
    `T${pad(date.getUTCHours(), 2)}:${pad(date.getUTCMinutes(), 2)}:${pad(date.getUTCSeconds(), 2)}` +
    `.${pad(date.getUTCMilliseconds(), 3)}${pad(us, 3)}Z`
  );
}

/** A run time as ISO text with microseconds in UTC, or undefined when the value is not a time. */
export function parseRunTime(value: unknown): string | undefined {
  const micros = parseEpochMicros(value);
  return micros === undefined ? undefined : isoFromMicros(micros);
}
