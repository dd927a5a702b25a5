import type { Run, RunBatch } from '@platform/contracts';
import { PageLease, type PageBufferPool } from './page-buffer-pool';

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
  /**
   * The batch of runs `[from, to)`, with the cursor of its last run. A batch may view the page's buffers: they are
   * reused only once the batch is released ({@link releaseRunBatch}) and the page too.
   */
  batch(from: number, to: number): RunBatch;
  /** The reader is done with the page (its batches may still be in use): its own hold on its buffers ends. */
  release(): void;
}

// The lease of each batch that views pooled buffers.
const batchLeases = new WeakMap<RunBatch, PageLease>();

/**
 * The batch's bytes are no longer read (sent, or dropped): the buffers it views may be reused once the other
 * batches of its page and the page itself are done too. Once per batch; a batch never released only keeps its
 * buffers from being reused.
 */
export function releaseRunBatch(batch: RunBatch): void {
  const lease = batchLeases.get(batch);
  if (!lease) return;
  batchLeases.delete(batch);
  lease.release();
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

  release(): void {
    // Nothing pooled.
  }
}

/** A run as the `ndjson` page query returns it: its cursor and its line, the JSON object of its fields. */
export interface NdjsonRunRow {
  start_time: string;
  id: string;
  line: string;
}

/** The cursors of a page's runs, by index. */
export interface RunCursors {
  at(index: number): ProtoRunCursor;
}

/**
 * Runs as NDJSON lines: a batch is their UTF-8 bytes, each line ended by "\n". Postgres writes a line as the
 * proto3 JSON form of `Run` (proto field names in export column order, int64 as strings, null for a null value),
 * the same text as `JSON.stringify` of a row of the `messages` query.
 *
 * The page's lines are written once into one buffer as the page arrives, and its batches are views of it: no batch
 * is copied again. Built from decoded rows (`fromRows`) or from the lines' bytes as they arrive (`NdjsonPageWriter`).
 */
export class NdjsonRunPage implements RunPage {
  private released = false;

  /**
   * @param bytes the lines, each ended by "\n"
   * @param offsets where each line starts in `bytes`, `count + 1` of them (the last is the end)
   * @param sizes UTF-8 bytes of each line, its newline included
   * @param lease the hold on pooled buffers that `bytes` and `cursors` view, if they are pooled
   */
  constructor(
    private readonly bytes: Buffer,
    private readonly offsets: ArrayLike<number>,
    private readonly cursors: RunCursors,
    readonly sizes: readonly number[],
    readonly truncated: boolean,
    private readonly lease?: PageLease,
  ) {}

  /**
   * A page of decoded rows (the query through Prisma): the strings can be collected as soon as the page is built,
   * instead of being held (and copied by the GC) while the page is sent.
   */
  static fromRows(rows: readonly NdjsonRunRow[], truncated = false): NdjsonRunPage {
    const count = rows.length;
    const cursors: ProtoRunCursor[] = new Array(count);
    const sizes: number[] = new Array(count);
    let total = 0;
    for (let i = 0; i < count; i++) {
      const { start_time, id, line } = rows[i];
      cursors[i] = { start_time, id };
      sizes[i] = Buffer.byteLength(line) + 1;
      total += sizes[i];
    }
    const bytes = Buffer.allocUnsafe(total);
    const offsets = new Uint32Array(count + 1);
    let offset = 0;
    for (let i = 0; i < count; i++) {
      offsets[i] = offset;
      offset += bytes.write(rows[i].line, offset);
      bytes[offset++] = 0x0a;
    }
    offsets[count] = offset;
    return new NdjsonRunPage(bytes, offsets, { at: (index) => cursors[index] }, sizes, truncated);
  }

  get count(): number {
    return this.sizes.length;
  }

  cursorAt(index: number): ProtoRunCursor {
    return this.cursors.at(index);
  }

  batch(from: number, to: number): RunBatch {
    if (this.released) throw new Error('ndjson page: batch of a released page');
    let longest = 0;
    for (let i = from; i < to; i++) longest = Math.max(longest, this.sizes[i]);
    const lines = this.bytes.subarray(this.offsets[from], this.offsets[to]);
    const batch: RunBatch = { ndjson: { lines, count: to - from, max_line_bytes: Math.max(0, longest - 1) }, cursor: this.cursorAt(to - 1) };
    if (this.lease) {
      this.lease.hold();
      batchLeases.set(batch, this.lease);
    }
    return batch;
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.lease?.release();
  }
}

// A page buffer larger than this and less than half used is copied to its size when the page is done.
const SHRINK_ABOVE_BYTES = 1024 * 1024;

/** Bytes appended into one buffer (from `pool` if given) that grows as needed. */
class ByteSink {
  buffer: Buffer;
  used = 0;

  constructor(
    capacity: number,
    private readonly pool?: PageBufferPool,
  ) {
    this.buffer = this.allocate(Math.max(64, capacity));
  }

  reserve(bytes: number): void {
    const needed = this.used + bytes;
    if (needed <= this.buffer.length) return;
    const grown = this.allocate(Math.max(needed, Math.ceil(this.buffer.length * 1.5)));
    this.buffer.copy(grown, 0, 0, this.used);
    this.pool?.give(this.buffer); // nothing views it yet
    this.buffer = grown;
  }

  private allocate(bytes: number): Buffer {
    return this.pool ? this.pool.take(bytes) : Buffer.allocUnsafe(bytes);
  }

  /** Appends a few bytes (a cursor's text): a loop, where `Buffer.copy` would cost more in its call than in copying. */
  appendShort(source: Buffer, start: number, end: number): void {
    this.reserve(end - start);
    const { buffer } = this;
    let at = this.used;
    for (let i = start; i < end; i++) buffer[at++] = source[i];
    this.used = at;
  }
}

/** Cursors kept as their ASCII bytes (epoch µs digits, uuid text), each decoded only when asked for. */
class ByteCursors implements RunCursors {
  constructor(
    private readonly bytes: Buffer,
    /** Per run: where its start time starts, where its id starts; then one end offset. */
    private readonly offsets: readonly number[],
  ) {}

  at(index: number): ProtoRunCursor {
    const { bytes, offsets } = this;
    const from = offsets[2 * index];
    const id = offsets[2 * index + 1];
    return { start_time: bytes.toString('latin1', from, id), id: bytes.toString('latin1', id, offsets[2 * index + 2]) };
  }
}

/**
 * Writes a page of NDJSON runs from the bytes of their cursors and lines as they arrive (a binary COPY), without a
 * JS string per line. Bytes passed in are copied before `add` returns, so they may be views of a reused buffer.
 * With a pool, the page's buffers come from it and go back when the page and all its batches are released.
 */
export class NdjsonPageWriter {
  private readonly lines: ByteSink;
  private readonly cursorBytes: ByteSink;
  private readonly lineOffsets: number[] = [0];
  private readonly cursorOffsets: number[] = [0];
  private readonly sizes: number[] = [];

  /** @param expectedBytes the page's lines as estimated (the buffer grows past it if needed) */
  constructor(
    expectedBytes: number,
    expectedRuns = 0,
    private readonly pool?: PageBufferPool,
  ) {
    this.lines = new ByteSink(expectedBytes, pool);
    this.cursorBytes = new ByteSink(Math.max(1024, expectedRuns * 56), pool);
  }

  get count(): number {
    return this.sizes.length;
  }

  /** Bytes of lines written so far, newlines included. */
  get bytes(): number {
    return this.lines.used;
  }

  /**
   * Adds one run from `source`: its start time (epoch µs as text) at `[startTime, startTimeEnd)`, its id (uuid text)
   * at `[id, idEnd)` and its line (UTF-8 JSON, without newline) at `[line, lineEnd)`.
   */
  add(source: Buffer, startTime: number, startTimeEnd: number, id: number, idEnd: number, line: number, lineEnd: number): void {
    const { lines, cursorBytes } = this;
    const size = lineEnd - line + 1;
    lines.reserve(size);
    source.copy(lines.buffer, lines.used, line, lineEnd);
    lines.used += size;
    lines.buffer[lines.used - 1] = 0x0a;
    this.lineOffsets.push(lines.used);
    this.sizes.push(size);
    cursorBytes.appendShort(source, startTime, startTimeEnd);
    this.cursorOffsets.push(cursorBytes.used);
    cursorBytes.appendShort(source, id, idEnd);
    this.cursorOffsets.push(cursorBytes.used);
  }

  /**
   * The page; the writer is not used after this. Its batches are views that keep the whole buffer alive while the
   * page is sent, so an unpooled buffer estimated far too large is copied to the lines' size first (a pooled one
   * is reused whatever its size).
   */
  finish(truncated: boolean): NdjsonRunPage {
    const cursors = new ByteCursors(this.cursorBytes.buffer, this.cursorOffsets);
    const { buffer, used } = this.lines;
    if (this.pool) {
      const lease = new PageLease(this.pool, [buffer, this.cursorBytes.buffer]);
      return new NdjsonRunPage(buffer.subarray(0, used), this.lineOffsets, cursors, this.sizes, truncated, lease);
    }
    const bytes = buffer.length > SHRINK_ABOVE_BYTES && used < buffer.length / 2 ? Buffer.from(buffer.subarray(0, used)) : buffer.subarray(0, used);
    return new NdjsonRunPage(bytes, this.lineOffsets, cursors, this.sizes, truncated);
  }

}
