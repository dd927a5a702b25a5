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
