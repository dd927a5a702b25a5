import { open, type FileHandle } from 'node:fs/promises';
import type { ParquetRow } from '../parquet-column';

// Only lines this long can come near DuckDB's default JSON object limit.
const MEASURE_FROM_CHARS = 1 << 20;

/**
 * Rows staged on local disk as newline-delimited JSON for DuckDB to read: one `JSON.stringify` per row
 * (the cheapest way to hand rows over from JavaScript, measured) and one write per `append`, left running
 * while the caller reads on, so memory does not grow with the file.
 */
export class NdjsonStage {
  rows = 0;
  bytes = 0;
  /** UTF-8 bytes of the longest line when one exceeded 1 MiB characters, else 0. */
  maxLineBytes = 0;
  private closed = false;
  /** The previous batch's write: one is in flight while the caller fetches the next batch. */
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    readonly path: string,
    private readonly file: FileHandle,
  ) {}

  static async create(path: string): Promise<NdjsonStage> {
    return new NdjsonStage(path, await open(path, 'wx'));
  }

  async append(rows: readonly ParquetRow[]): Promise<void> {
    if (this.closed) throw new Error('NDJSON stage is closed');
    if (!rows.length) return;
    // Each line is encoded straight into one buffer: no joined copy of the batch.
    const lines = new Array<string>(rows.length);
    let size = 0;
    for (let i = 0; i < rows.length; i++) {
      const line = JSON.stringify(rows[i]);
      const bytes = Buffer.byteLength(line);
      if (line.length > MEASURE_FROM_CHARS) this.maxLineBytes = Math.max(this.maxLineBytes, bytes);
      lines[i] = line;
      size += bytes + 1;
    }
    const chunk = Buffer.allocUnsafe(size);
    let offset = 0;
    for (const line of lines) {
      offset += chunk.write(line, offset);
      chunk[offset++] = 0x0a;
    }
    // A failed write surfaces here, at the next append, or at close.
    await this.writing;
    this.writing = this.write(chunk);
    this.writing.catch(() => undefined);
    this.rows += rows.length;
    this.bytes += chunk.length;
  }

  private async write(chunk: Buffer): Promise<void> {
    for (let written = 0; written < chunk.length; ) {
      written += (await this.file.write(chunk, written)).bytesWritten;
    }
  }

  /** Waits for the last write, then closes the file. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.writing;
    } finally {
      await this.file.close();
    }
  }
}
