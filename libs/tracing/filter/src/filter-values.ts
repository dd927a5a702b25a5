import { isUuid } from '@platform/ids';
import type { FilterScalar } from './filter-ast';

const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const DURATION = /^(\d+(?:\.\d+)?|\.\d+)\s*(ms|s|m|h|d)?$/;
const UNIT_SECONDS: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86400 };

export const asUuid = (value: FilterScalar): string | undefined =>
  typeof value === 'string' && isUuid(value) ? value.toLowerCase() : undefined;

/**
 * An ISO-8601 time (`2024-05-01`, `2024-05-01T12:00:00Z`, with up to 9 fractional digits and an optional zone),
 * rewritten with `T` and a zone: like the ingestion path, a time without a zone is UTC, whatever the session's zone.
 */
export function asIsoTime(value: FilterScalar): string | undefined {
  if (typeof value !== 'string') return undefined;
  const m = ISO_TIME.exec(value.trim());
  if (!m) return undefined;
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac = '', zone = 'Z'] = m;
  const daysInMonth = new Date(Date.UTC(Number(y), Number(mo), 0)).getUTCDate();
  if (Number(mo) < 1 || Number(mo) > 12 || Number(d) < 1 || Number(d) > daysInMonth) return undefined;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  if (zone !== 'Z' && zone !== 'z' && (Number(zone.slice(1, 3)) > 15 || Number(zone.replace(':', '').slice(3) || '0') > 59)) return undefined;
  return `${y}-${mo}-${d}T${h}:${mi}:${s}${frac}${zone.toUpperCase()}`;
}

/** Seconds from a number, or from a duration string `"100ms"`, `"5s"`, `"1.5m"`, `"2h"`, `"1d"` (bare = seconds). */
export function asSeconds(value: FilterScalar): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const m = DURATION.exec(value.trim());
  return m ? Number(m[1]) * UNIT_SECONDS[m[2] ?? 's'] : undefined;
}

export const asNumber = (value: FilterScalar): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

export const asString = (value: FilterScalar): string | undefined => (typeof value === 'string' ? value : undefined);

export const asBoolean = (value: FilterScalar): boolean | undefined => (typeof value === 'boolean' ? value : undefined);

/** Metadata and input values are compared as the text `jsonb_each_text` gives: numbers and booleans as written. */
export const asKeyOrValue = (value: FilterScalar): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;

/** A JSON object given as a string, for `has(metadata, '{"k": "v"}')`. */
export function asJsonObject(value: FilterScalar): Record<string, unknown> | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
