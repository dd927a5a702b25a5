import type { Run, RunBatch } from '@platform/contracts';

/** The position of a run as the proto carries it. */
export interface ProtoRunCursor {
  start_time: string;
  id: string;
}

/** One keyset page of runs in (start_time, id) order, in the encoding its batches are sent in. */
export interface RunPage {
  /** Runs in the page. */
  readonly count: number;
  /** Approximate encoded bytes of each run, for bounding message size. */
  readonly sizes: readonly number[];
  /** Cursor of the run at `index`. */
  cursorAt(index: number): ProtoRunCursor;
  /** The batch of runs `[from, to)`, with the cursor of its last run. */
  batch(from: number, to: number): RunBatch;
}

/** Runs as proto `Run` messages. */
export class MessageRunPage implements RunPage {
  constructor(
    readonly runs: readonly Run[],
    readonly sizes: readonly number[],
  ) {}

  get count(): number {
    return this.runs.length;
  }

  cursorAt(index: number): ProtoRunCursor {
    const run = this.runs[index];
    return { start_time: String(run.start_time), id: String(run.id) };
  }

  batch(from: number, to: number): RunBatch {
    return { runs: this.runs.slice(from, to), cursor: this.cursorAt(to - 1) };
  }
}

/** A run as the page query returns it: the proto field names, each with its value in the `Run` encoding or null. */
export type RunStreamRow = { id: string; start_time: string } & Record<string, unknown>;

/**
 * Runs as NDJSON lines: a batch is their UTF-8 bytes, each line ended by "\n". A line is `JSON.stringify` of the
 * row, which is the proto3 JSON form of `Run` (proto field names, int64 as strings, null for a null value).
 */
export class NdjsonRunPage implements RunPage {
  private readonly lines: string[];
  /** Only the cursors of the rows are kept: their values are in the lines. */
  private readonly cursors: ProtoRunCursor[];
  /** UTF-8 bytes of each line, its newline included. */
  readonly sizes: number[];

  constructor(rows: readonly RunStreamRow[]) {
    this.lines = rows.map((row) => JSON.stringify(row));
    this.cursors = rows.map(({ start_time, id }) => ({ start_time, id }));
    this.sizes = this.lines.map((line) => Buffer.byteLength(line) + 1);
  }

  get count(): number {
    return this.cursors.length;
  }

  cursorAt(index: number): ProtoRunCursor {
    return this.cursors[index];
  }

  batch(from: number, to: number): RunBatch {
    let bytes = 0;
    let longest = 0;
    for (let i = from; i < to; i++) {
      bytes += this.sizes[i];
      longest = Math.max(longest, this.sizes[i]);
    }
    const lines = Buffer.allocUnsafe(bytes);
    let offset = 0;
    for (let i = from; i < to; i++) {
      offset += lines.write(this.lines[i], offset);
      lines[offset++] = 0x0a;
    }
    return { ndjson: { lines, count: to - from, max_line_bytes: Math.max(0, longest - 1) }, cursor: this.cursorAt(to - 1) };
  }
}
