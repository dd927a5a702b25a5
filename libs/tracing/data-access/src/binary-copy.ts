import type pg from 'pg';
import { asDatabaseUnavailable, createPostgresPool, retryWhileUnavailable } from '@platform/prisma';

/**
 * One tuple of a binary COPY, valid only during the callback it is passed to (its bytes are a view of the driver's
 * read buffer, which the next socket read may overwrite): field `i` is `data[starts[i], ends[i])`, or null where
 * `starts[i]` is -1.
 */
export interface CopyTuple {
  readonly data: Buffer;
  readonly count: number;
  readonly starts: Int32Array;
  readonly ends: Int32Array;
}

/** What is called with each tuple, in order, synchronously as it arrives. */
export type CopyTupleSink = (tuple: CopyTuple) => void;

/**
 * `COPY (<select>) TO STDOUT (FORMAT binary)` on Postgres, with sorts ruled out as `prismaUnsortedSql` rules them out:
 * each tuple's fields reach the sink as bytes, not as decoded JS values. COPY takes no bind parameters, so `select`
 * carries its values as literals.
 */
export interface UnsortedCopySql {
  /** Runs the COPY; resolves with the number of tuples once the statement has completed. */
  copyOut(select: string, onTuple: CopyTupleSink): Promise<number>;
}

/** {@link UnsortedCopySql} on a pg pool of its own, which `close()` ends. */
export interface PostgresCopySql extends UnsortedCopySql {
  close(): Promise<void>;
}

// "PGCOPY\n\377\r\n\0", then the flags field and the header extension's length (int32 each).
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
const HEADER_BYTES = SIGNATURE.length + 8;
// Bit 16 of the flags: OIDs are included in the data (never for COPY (SELECT ...)); bits 0-15 are reserved.
const FLAG_HAS_OIDS = 1 << 16;
const MAX_FIELDS = 1664; // Postgres' limit on the columns of a result

/**
 * The binary COPY format (https://www.postgresql.org/docs/current/sql-copy.html#id-1.9.3.55.9.4): a header, per tuple
 * an int16 field count and per field an int32 length (-1: null) and its bytes, and a trailer (field count -1). Chunks
 * may cut a tuple anywhere; Postgres sends each tuple as one CopyData message (the header joins the first), which the
 * parser reads in place, and only a tuple cut across chunks is copied.
 */
export class BinaryCopyParser {
  private header = false;
  private done = false;
  private rest: Buffer | undefined;
  private tuples = 0;
  private readonly tuple: { data: Buffer; count: number; starts: Int32Array; ends: Int32Array };

  constructor(private readonly onTuple: CopyTupleSink) {
    this.tuple = { data: Buffer.alloc(0), count: 0, starts: new Int32Array(16), ends: new Int32Array(16) };
  }

  /** Tuples seen so far. */
  get count(): number {
    return this.tuples;
  }

  /** Feeds the next chunk of the COPY's data. */
  push(chunk: Buffer): void {
    if (this.done) {
      if (chunk.length > 0) throw new Error('binary COPY: data after the trailer');
      return;
    }
    let data = chunk;
    if (this.rest) {
      data = Buffer.concat([this.rest, chunk]);
      this.rest = undefined;
    }
    const used = this.parse(data);
    if (used < data.length) {
      if (this.done) throw new Error('binary COPY: data after the trailer');
      // Copied: `data` may be a view of the driver's buffer, reused after this call.
      this.rest = Buffer.from(data.subarray(used));
    }
  }

  /** Checks that the data ended with the trailer. */
  end(): void {
    if (!this.done) throw new Error('binary COPY: the data ended before its trailer');
  }

  /** Parses whole tuples from `data`; returns how many bytes were used. */
  private parse(data: Buffer): number {
    let at = 0;
    if (!this.header) {
      if (data.length < HEADER_BYTES) return 0;
      if (!data.subarray(0, SIGNATURE.length).equals(SIGNATURE)) throw new Error('binary COPY: bad signature');
      const flags = data.readUInt32BE(SIGNATURE.length);
      if (flags & FLAG_HAS_OIDS) throw new Error('binary COPY: tuples with OIDs are not read');
      const extension = data.readUInt32BE(SIGNATURE.length + 4);
      if (data.length < HEADER_BYTES + extension) return 0;
      at = HEADER_BYTES + extension;
      this.header = true;
    }
    const tuple = this.tuple;
    while (at + 2 <= data.length) {
      const count = data.readInt16BE(at);
      if (count === -1) {
        this.done = true;
        return at + 2;
      }
      if (count < 0 || count > MAX_FIELDS) throw new Error(`binary COPY: bad field count ${count}`);
      if (count > tuple.starts.length) {
        tuple.starts = new Int32Array(count);
        tuple.ends = new Int32Array(count);
      }
      let p = at + 2;
      let whole = true;
      for (let i = 0; i < count; i++) {
        if (p + 4 > data.length) {
          whole = false;
          break;
        }
        const length = data.readInt32BE(p);
        p += 4;
        if (length === -1) {
          tuple.starts[i] = -1;
          tuple.ends[i] = -1;
          continue;
        }
        if (length < 0) throw new Error(`binary COPY: bad field length ${length}`);
        if (p + length > data.length) {
          whole = false;
          break;
        }
        tuple.starts[i] = p;
        tuple.ends[i] = p + length;
        p += length;
      }
      if (!whole) break;
      tuple.data = data;
      tuple.count = count;
      this.tuples++;
      this.onTuple(tuple);
      at = p;
    }
    return at;
  }
}

type Callback = (err: Error | undefined, tuples: number) => void;

/**
 * A pg Submittable (as pg-cursor and pg-query-stream are): sends one simple-protocol query whose last statement is a
 * binary `COPY ... TO STDOUT`, and hands each CopyData message to a {@link BinaryCopyParser} as pg's protocol parser
 * delivers it. pg's client forwards CopyData, CommandComplete, ErrorResponse and ReadyForQuery to the active query;
 * CopyOutResponse and CopyDone it does not forward, and nothing here needs them.
 */
class CopyOutQuery {
  private readonly parser: BinaryCopyParser;
  private failure: Error | undefined;
  private finished = false;

  constructor(
    private readonly text: string,
    onTuple: CopyTupleSink,
    private readonly callback: Callback,
  ) {
    this.parser = new BinaryCopyParser(onTuple);
  }

  submit(connection: { query(text: string): void }): void {
    connection.query(this.text);
  }

  handleCopyData(message: { chunk: Buffer }): void {
    // After a failure (a sink that threw, bad data) the rest of the data is read and dropped: the query fails when
    // Postgres is done with it.
    if (this.failure) return;
    try {
      this.parser.push(message.chunk);
    } catch (err) {
      this.failure = err instanceof Error ? err : new Error(String(err));
    }
  }

  handleCommandComplete(): void {
    // The SET before the COPY completes too; its data has none to end.
  }

  handleRowDescription(): void {
    this.failure ??= new Error('binary COPY: the query returned rows instead of COPY data');
  }

  handleDataRow(): void {
    // Refused in handleRowDescription.
  }

  handleEmptyQuery(): void {
    this.failure ??= new Error('binary COPY: empty query');
  }

  handlePortalSuspended(): void {
    // Only the extended protocol suspends portals; this query uses the simple one.
  }

  handleCopyInResponse(connection: { sendCopyFail(message: string): void }): void {
    this.failure ??= new Error('binary COPY: the query asked for COPY FROM data');
    connection.sendCopyFail('COPY FROM is not supported here');
  }

  /** An ErrorResponse from Postgres, or the connection's own failure. */
  handleError(err: Error): void {
    this.finish(err);
  }

  handleReadyForQuery(): void {
    if (!this.failure) {
      try {
        this.parser.end();
      } catch (err) {
        this.failure = err as Error;
      }
    }
    this.finish(this.failure);
  }

  private finish(err: Error | undefined): void {
    if (this.finished) return;
    this.finished = true;
    this.callback(err, this.parser.count);
  }
}

/**
 * Runs `select` as a binary COPY on one connection of `pool`: `SET LOCAL enable_sort = off` and the COPY are one
 * simple-protocol query, which Postgres runs as one implicit transaction (so the setting ends with it, and a failure
 * rolls it back). A connection that saw an error is discarded rather than returned to the pool.
 */
export function pgUnsortedCopySql(pool: pg.Pool): UnsortedCopySql {
  return {
    copyOut: async (select, onTuple) => {
      const text = `SET LOCAL enable_sort = off; COPY (${select}) TO STDOUT (FORMAT binary)`;
      const client = await retryWhileUnavailable(() => pool.connect());
      try {
        const tuples = await new Promise<number>((resolve, reject) => {
          const query = new CopyOutQuery(text, onTuple, (err, count) => (err ? reject(err) : resolve(count)));
          // pg's typings know Submittable as `submit(connection)`; the handlers above are what its client calls.
          client.query(query as unknown as pg.Submittable);
        });
        client.release();
        return tuples;
      } catch (err) {
        client.release(err instanceof Error ? err : new Error(String(err)));
        throw asDatabaseUnavailable(err);
      }
    },
  };
}

/** Opens a pg pool on `url` for {@link UnsortedCopySql}: StreamRuns' NDJSON pages on Postgres. */
export function openPostgresCopySql(url: string, options: { poolSize?: number } = {}): PostgresCopySql {
  // Its connections' errors (a server restart) must not crash the process; see createPostgresPool.
  const pool = createPostgresPool(url, options);
  let closed = false;
  return {
    ...pgUnsortedCopySql(pool),
    close: async () => {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}
