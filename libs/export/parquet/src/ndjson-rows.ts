import type { ParquetRow } from './parquet-column';
import type { NdjsonRows } from './parquet-file-writer';

/** Serializes rows as NDJSON: one `JSON.stringify` per row (the cheapest way out of JavaScript, measured), one buffer. */
export function toNdjsonRows(rows: readonly ParquetRow[]): NdjsonRows {
  const lines = new Array<string>(rows.length);
  let size = 0;
  let longest = 0;
  for (let i = 0; i < rows.length; i++) {
    const line = JSON.stringify(rows[i]);
    const bytes = Buffer.byteLength(line);
    longest = Math.max(longest, bytes);
    lines[i] = line;
    size += bytes + 1;
  }
  // Each line is encoded straight into the one buffer: no joined copy of the batch.
  const buffer = Buffer.allocUnsafe(size);
  let offset = 0;
  for (const line of lines) {
    offset += buffer.write(line, offset);
    buffer[offset++] = 0x0a;
  }
  return { lines: buffer, count: rows.length, maxLineBytes: longest };
}

/**
 * Splits off the leading rows that fit in `maxRows` rows and `maxBytes` bytes (newlines counted); the rest, if any,
 * is `tail`. With `atLeastOne`, a first row larger than `maxBytes` is taken alone rather than never. Both parts
 * keep `maxLineBytes` of the whole as their bound.
 */
export function splitNdjsonRows(rows: NdjsonRows, maxRows: number, maxBytes: number, atLeastOne: boolean): { head: NdjsonRows; tail?: NdjsonRows } {
  if (rows.count <= maxRows && rows.lines.length <= maxBytes) return { head: rows };
  let end = 0;
  let count = 0;
  while (count < maxRows && count < rows.count) {
    const next = rows.lines.indexOf(0x0a, end) + 1;
    if (next > maxBytes && !(atLeastOne && count === 0)) break;
    end = next;
    count++;
  }
  const part = (lines: Buffer, n: number): NdjsonRows => ({ lines, count: n, maxLineBytes: rows.maxLineBytes });
  const tail = count < rows.count ? part(rows.lines.subarray(end), rows.count - count) : undefined;
  return { head: part(rows.lines.subarray(0, end), count), tail };
}

/** The last row's line (without its newline), parsed. */
export function lastNdjsonRow(rows: NdjsonRows): Record<string, unknown> {
  const end = rows.lines.length - 1;
  const start = rows.lines.lastIndexOf(0x0a, end - 1) + 1;
  return JSON.parse(rows.lines.toString('utf8', start, end)) as Record<string, unknown>;
}
