import { isoFromMicros } from './run-time';

/** One `YYYYMMDDTHHMMSSffffffZ<uuid>` segment of a dotted order. */
export interface DottedOrderSegment {
  /** The segment's time, ISO with microseconds. */
  time: string;
  /** The run id, lower case. */
  id: string;
}

const SEGMENT = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{6})Z([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** The longest dotted order accepted: deeper trees than this are a client bug, not a trace. */
const MAX_DEPTH = 1000;

function parseSegment(text: string): DottedOrderSegment | undefined {
  const m = SEGMENT.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return undefined;
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  return { time: isoFromMicros(ms * 1000 + Number(m[7])), id: m[8].toLowerCase() };
}

/**
 * Parses a dotted order (segments joined by `.`, root first). Returns the segments, or a message saying what is wrong.
 */
export function parseDottedOrder(value: string): DottedOrderSegment[] | string {
  const parts = value.split('.');
  if (parts.length > MAX_DEPTH) return `dotted_order is deeper than ${MAX_DEPTH} levels`;
  const segments: DottedOrderSegment[] = [];
  for (let i = 0; i < parts.length; i++) {
    const segment = parseSegment(parts[i]);
    if (!segment) return `dotted_order segment ${i} is not of the form YYYYMMDDTHHMMSSffffffZ<uuid>: "${parts[i].slice(0, 80)}"`;
    segments.push(segment);
  }
  return segments;
}

/** A segment for a run that came without a dotted order (from its start time and id). */
export function dottedOrderSegment(startTimeIso: string, id: string): string {
  // 2024-05-01T12:00:00.123456Z → 20240501T120000123456Z
  return `${startTimeIso.replace(/[-:.]/g, '')}${id}`;
}
