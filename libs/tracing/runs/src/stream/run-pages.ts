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
  /** The page stopped at its byte budget before its row limit: more runs may follow even if it is short. */
  readonly truncated: boolean;
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
    readonly truncated = false,
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

/** A run as the `ndjson` page query returns it: its cursor and its line, the JSON object of its fields. */
export interface NdjsonRunRow {
  start_time: string;
  id: string;
  line: string;
}

/**
 * Runs as NDJSON lines: a batch is their UTF-8 bytes, each line ended by "\n". Postgres writes a line as the
 * proto3 JSON form of `Run` (proto field names in export column order, int64 as strings, null for a null value),
 * the same text as `JSON.stringify` of a row of the `messages` query.
 *
 * The page's lines are written once into one buffer as the page arrives, and its batches are views of it: the
 * strings pg decoded die young instead of being held (and copied by the GC) while the page is sent, and no batch
 * is copied again.
 */
export class NdjsonRunPage implements RunPage {
  private readonly bytes: Buffer;
  /** Where each line starts in `bytes`; `count + 1` offsets. */
  private readonly offsets: Uint32Array;
  private readonly cursors: ProtoRunCursor[];
  /** UTF-8 bytes of each line, its newline included. */
  readonly sizes: number[];

  constructor(
    rows: readonly NdjsonRunRow[],
    readonly truncated = false,
  ) {
    const count = rows.length;
    this.cursors = new Array(count);
    this.sizes = new Array(count);
    let total = 0;
    for (let i = 0; i < count; i++) {
      const { start_time, id, line } = rows[i];
      this.cursors[i] = { start_time, id };
      this.sizes[i] = Buffer.byteLength(line) + 1;
      total += this.sizes[i];
    }
    this.bytes = Buffer.allocUnsafe(total);
    this.offsets = new Uint32Array(count + 1);
    let offset = 0;
    for (let i = 0; i < count; i++) {
      this.offsets[i] = offset;
      offset += this.bytes.write(rows[i].line, offset);
      this.bytes[offset++] = 0x0a;
    }
    this.offsets[count] = offset;
  }

  get count(): number {
    return this.cursors.length;
  }

  cursorAt(index: number): ProtoRunCursor {
    return this.cursors[index];
  }

  batch(from: number, to: number): RunBatch {
    let longest = 0;
    for (let i = from; i < to; i++) longest = Math.max(longest, this.sizes[i]);
    const lines = this.bytes.subarray(this.offsets[from], this.offsets[to]);
    return { ndjson: { lines, count: to - from, max_line_bytes: Math.max(0, longest - 1) }, cursor: this.cursorAt(to - 1) };
  }
}
