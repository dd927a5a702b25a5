// int64 epoch microseconds travel as decimal strings (loader option `longs: String`); bigint keeps
// them exact, since Number loses microseconds past 2^53.

const ISO = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:?\d{2})?$/i;

/** Epoch microseconds of an ISO 8601 time (up to 6 fractional digits kept; no zone = UTC). */
export function isoToMicros(iso: string): string {
  const match = ISO.exec(iso.trim());
  const ms = match ? Date.parse(`${match[1]}${match[3] ?? 'Z'}`) : Date.parse(iso);
  if (Number.isNaN(ms)) throw new RangeError(`Not an ISO 8601 time: ${iso}`);
  const fraction = (match?.[2] ?? '').padEnd(6, '0').slice(0, 6);
  return (BigInt(ms) * 1000n + BigInt(fraction)).toString();
}

/** Epoch microseconds of a Date (millisecond precision). */
export function dateToMicros(date: Date): string {
  return (BigInt(date.getTime()) * 1000n).toString();
}

// Division rounding down (bigint division truncates towards zero), for times before 1970.
function floorDiv(value: bigint, by: bigint): bigint {
  const quotient = value / by;
  return value % by < 0n ? quotient - 1n : quotient;
}

/** ISO 8601 UTC with 6 fractional digits, e.g. `2024-05-01T12:00:00.123456Z`. */
export function microsToIso(micros: string | number | bigint): string {
  const value = BigInt(micros);
  const seconds = floorDiv(value, 1_000_000n);
  const fraction = value - seconds * 1_000_000n;
  const whole = new Date(Number(seconds) * 1000).toISOString().slice(0, 19);
  return `${whole}.${fraction.toString().padStart(6, '0')}Z`;
}

/** A Date for epoch microseconds (rounded down to milliseconds). */
export function microsToDate(micros: string | number | bigint): Date {
  return new Date(Number(floorDiv(BigInt(micros), 1000n)));
}
