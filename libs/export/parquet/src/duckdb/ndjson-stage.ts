import { open, type FileHandle } from 'node:fs/promises';
import type { NdjsonRows } from '../parquet-file-writer';

/**
 * Rows staged on local disk as newline-delimited JSON for DuckDB to read: one write per `append`, left running
 * while the caller reads on, so memory does not grow with the file.
 */
export class NdjsonStage {
  rows = 0;
  bytes = 0;
  /** UTF-8 bytes of the longest line. */
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

  async append(rows: NdjsonRows): Promise<void> {
    if (this.closed) throw new Error('NDJSON stage is closed');
    if (!rows.count) return;
    if (rows.lines[rows.lines.length - 1] !== 0x0a) throw new Error('NDJSON rows must end with a newline');
    // A failed write surfaces here, at the next append, or at close.
    await this.writing;
    this.writing = this.write(rows.lines);
    this.writing.catch(() => undefined);
    this.rows += rows.count;
    this.bytes += rows.lines.length;
    this.maxLineBytes = Math.max(this.maxLineBytes, rows.maxLineBytes);
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
