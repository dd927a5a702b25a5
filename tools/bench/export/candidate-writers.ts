// The Parquet writers the export worker could use, each behind the lib's ParquetWriterFactory interface so the
// benchmark drives them the same way. The chosen one (DuckDB, rows staged as NDJSON) lives in
// @platform/export-parquet; the others are here only to be measured against it.
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DuckDBInstance, LIST, VARCHAR, type DuckDBAppender } from '@duckdb/node-api';
import {
  createDuckDbParquetWriterFactory,
  parquetCodec,
  type NdjsonRows,
  type ParquetColumn,
  type ParquetFileOnDisk,
  type ParquetFileOptions,
  type ParquetFileWriter,
  type ParquetRow,
  type ParquetWriterFactory,
} from '@platform/export-parquet';

export const WRITERS = ['parquetjs-lite', 'hyparquet-writer', 'duckdb-appender', 'duckdb-ndjson'] as const;
export type WriterName = (typeof WRITERS)[number];

/** Codecs each writer can produce (export compression values). */
export const WRITER_CODECS: Record<WriterName, readonly string[]> = {
  'parquetjs-lite': ['none', 'gzip', 'snappy'],
  'hyparquet-writer': ['none', 'gzip', 'snappy'],
  'duckdb-appender': ['none', 'gzip', 'snappy', 'zstandard'],
  'duckdb-ndjson': ['none', 'gzip', 'snappy', 'zstandard'],
};

export const ROW_GROUP_ROWS = 10_000;

// Bytes of the string values of a row: the roll measure of writers that stage nothing.
const valueOf = (row: ParquetRow, name: string) => (row as Record<string, unknown>)[name];

function valueBytes(row: ParquetRow, columns: readonly ParquetColumn[]): number {
  let bytes = 0;
  for (const { name } of columns) {
    const value = valueOf(row, name);
    if (typeof value === 'string') bytes += value.length;
    else if (Array.isArray(value)) for (const item of value) bytes += String(item).length;
    else if (value !== undefined && value !== null) bytes += 8;
  }
  return bytes;
}

abstract class TempFileWriter implements ParquetFileWriter {
  rows = 0;
  stagedBytes = 0;
  constructor(
    protected readonly dir: string,
    protected readonly options: ParquetFileOptions,
  ) {}
  protected get path(): string {
    return join(this.dir, 'file.parquet');
  }
  abstract append(rows: readonly ParquetRow[]): Promise<void>;
  /** These writers take objects: NDJSON is parsed back into them. */
  appendNdjson(rows: NdjsonRows): Promise<void> {
    const text = rows.lines.toString('utf8');
    return this.append(text.slice(0, -1).split('\n').map((line) => JSON.parse(line) as ParquetRow));
  }
  protected abstract close(): Promise<void>;
  async finish(): Promise<ParquetFileOnDisk> {
    await this.close();
    return { path: this.path, bytes: (await stat(this.path)).size, rows: this.rows };
  }
  async dispose(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }
}

// ---- parquetjs-lite 0.8.7: row-wise, streams row groups; no ZSTD; lists as 2-level `repeated` fields.

interface ParquetJsWriter {
  appendRow(row: Record<string, unknown>): Promise<void>;
  close(): Promise<void>;
  setRowGroupSize(rows: number): void;
}

function parquetJsSchema(columns: readonly ParquetColumn[], compression: string) {
  const types: Record<ParquetColumn['type'], Record<string, unknown>> = {
    utf8: { type: 'UTF8', optional: true },
    json: { type: 'UTF8', optional: true },
    timestamp_micros_utc: { type: 'TIMESTAMP_MICROS', optional: true },
    timestamp_nanos_local: { type: 'TIMESTAMP_MICROS', optional: true },
    utf8_list: { type: 'UTF8', repeated: true },
    int64: { type: 'INT64', optional: true },
    boolean: { type: 'BOOLEAN', optional: true },
    decimal: { type: 'DOUBLE', optional: true },
  };
  return Object.fromEntries(columns.map((c) => [c.name, { ...types[c.type], compression }]));
}

class ParquetJsLiteWriter extends TempFileWriter {
  private writer?: ParquetJsWriter;
  async append(rows: readonly ParquetRow[]): Promise<void> {
    const parquet = require('parquetjs-lite');
    if (!this.writer) {
      const schema = new parquet.ParquetSchema(parquetJsSchema(this.options.columns, parquetCodec(this.options.compression)));
      this.writer = (await parquet.ParquetWriter.openFile(schema, this.path)) as ParquetJsWriter;
      this.writer.setRowGroupSize(ROW_GROUP_ROWS);
    }
    for (const row of rows) {
      const out: Record<string, unknown> = {};
      for (const { name, type } of this.options.columns) {
        const value = valueOf(row, name);
        if (value === undefined || value === null) continue;
        out[name] = type === 'decimal' ? Number(value) : value;
      }
      await this.writer.appendRow(out);
      this.stagedBytes += valueBytes(row, this.options.columns);
    }
    this.rows += rows.length;
  }
  protected async close(): Promise<void> {
    await this.writer?.close();
  }
}

// ---- hyparquet-writer 0.17.0: columnar, encodes a whole row group synchronously; SNAPPY in JS, GZIP via zlib.

/* eslint-disable @typescript-eslint/no-explicit-any -- hyparquet-writer is an ES module loaded with import() */
type HyparquetModule = any;
let hyparquet: Promise<HyparquetModule> | undefined;

function hyparquetSchema(columns: readonly ParquetColumn[]) {
  const schema: Record<string, unknown>[] = [{ name: 'root', num_children: columns.length }];
  for (const { name, type } of columns) {
    const optional = { name, repetition_type: 'OPTIONAL' };
    if (type === 'utf8' || type === 'json') schema.push({ ...optional, type: 'BYTE_ARRAY', converted_type: 'UTF8' });
    else if (type === 'timestamp_micros_utc' || type === 'timestamp_nanos_local')
      schema.push({ ...optional, type: 'INT64', converted_type: 'TIMESTAMP_MICROS', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' } });
    else if (type === 'int64') schema.push({ ...optional, type: 'INT64' });
    else if (type === 'boolean') schema.push({ ...optional, type: 'BOOLEAN' });
    else if (type === 'decimal') schema.push({ ...optional, type: 'DOUBLE' });
    else {
      schema.push({ ...optional, converted_type: 'LIST', num_children: 1 });
      schema.push({ name: 'list', repetition_type: 'REPEATED', num_children: 1 });
      schema.push({ name: 'element', repetition_type: 'OPTIONAL', type: 'BYTE_ARRAY', converted_type: 'UTF8' });
    }
  }
  return schema;
}

class HyparquetWriter extends TempFileWriter {
  private writer?: any;
  private pending: ParquetRow[] = [];

  async append(rows: readonly ParquetRow[]): Promise<void> {
    if (!this.writer) {
      hyparquet ??= import('hyparquet-writer');
      const { ParquetWriter, fileWriter } = await hyparquet;
      this.writer = new ParquetWriter({
        writer: fileWriter(this.path),
        schema: hyparquetSchema(this.options.columns),
        codec: parquetCodec(this.options.compression),
        compressors: { GZIP: (bytes: Uint8Array) => new Uint8Array(gzipSync(bytes)) },
      });
    }
    for (const row of rows) {
      this.pending.push(row);
      this.stagedBytes += valueBytes(row, this.options.columns);
    }
    this.rows += rows.length;
    if (this.pending.length >= ROW_GROUP_ROWS) this.flush();
  }

  private flush(): void {
    if (!this.pending.length) return;
    const rows = this.pending;
    this.pending = [];
    const columnData = this.options.columns.map(({ name, type }) => ({
      name,
      data: rows.map((row) => {
        const value = valueOf(row, name);
        if (value === undefined || value === null) return null;
        if (type === 'int64' || type.startsWith('timestamp')) return BigInt(value as string);
        if (type === 'decimal') return Number(value);
        return value;
      }),
    }));
    this.writer.write({ columnData, rowGroupSize: rows.length });
  }

  protected async close(): Promise<void> {
    this.flush();
    this.writer?.finish();
  }
}
/* eslint-enable @typescript-eslint/no-explicit-any */

// ---- DuckDB appender: rows appended value by value into an in-memory table, then COPY to Parquet per file
// (memory grows with the file).

const APPEND_TYPE: Record<ParquetColumn['type'], string> = {
  utf8: 'VARCHAR',
  json: 'VARCHAR',
  timestamp_micros_utc: 'BIGINT',
  timestamp_nanos_local: 'BIGINT',
  utf8_list: 'VARCHAR[]',
  int64: 'BIGINT',
  boolean: 'BOOLEAN',
  decimal: 'VARCHAR',
};

class DuckDbAppenderWriter extends TempFileWriter {
  private appender?: DuckDBAppender;
  private connection?: Awaited<ReturnType<DuckDBInstance['connect']>>;
  private readonly table = `rows_${Math.random().toString(36).slice(2)}`;

  constructor(
    dir: string,
    options: ParquetFileOptions,
    private readonly db: DuckDBInstance,
  ) {
    super(dir, options);
  }

  async append(rows: readonly ParquetRow[]): Promise<void> {
    const columns = this.options.columns;
    if (!this.appender) {
      this.connection = await this.db.connect();
      await this.connection.run(`CREATE TABLE ${this.table} (${columns.map((c) => `"${c.name}" ${APPEND_TYPE[c.type]}`).join(', ')})`);
      this.appender = await this.connection.createAppender(this.table);
    }
    const appender = this.appender;
    const listType = LIST(VARCHAR);
    for (const row of rows) {
      for (const { name, type } of columns) {
        const value = valueOf(row, name);
        if (value === undefined || value === null) appender.appendNull();
        else if (type === 'utf8_list') appender.appendList(value as string[], listType);
        else if (type === 'boolean') appender.appendBoolean(value as boolean);
        else if (APPEND_TYPE[type] === 'BIGINT') appender.appendBigInt(BigInt(value as string));
        else appender.appendVarchar(value as string);
      }
      appender.endRow();
      this.stagedBytes += valueBytes(row, columns);
    }
    this.rows += rows.length;
  }

  protected async close(): Promise<void> {
    if (!this.appender || !this.connection) return;
    this.appender.closeSync();
    const select = this.options.columns
      .map(({ name, type }) => {
        if (type === 'timestamp_micros_utc') return `make_timestamp("${name}")::TIMESTAMPTZ AS "${name}"`;
        if (type === 'timestamp_nanos_local') return `make_timestamp("${name}")::TIMESTAMP_NS AS "${name}"`;
        if (type === 'decimal') return `"${name}"::DECIMAL(20, 10) AS "${name}"`;
        return `"${name}"`;
      })
      .join(', ');
    const codec = { UNCOMPRESSED: 'uncompressed', GZIP: 'gzip', SNAPPY: 'snappy', ZSTD: 'zstd' }[parquetCodec(this.options.compression)];
    await this.connection.run(`SET TimeZone = 'UTC'`);
    await this.connection.run(`COPY (SELECT ${select} FROM ${this.table}) TO '${this.path}' (FORMAT parquet, COMPRESSION ${codec}, ROW_GROUP_SIZE ${ROW_GROUP_ROWS})`);
    await this.connection.run(`DROP TABLE ${this.table}`);
    this.connection.closeSync();
  }
}

/** A factory for the named writer, its files under `tempDir`. */
export async function writerFactory(name: WriterName, tempDir = tmpdir(), threads?: number): Promise<ParquetWriterFactory> {
  if (name === 'duckdb-ndjson') return createDuckDbParquetWriterFactory({ tempDir, threads });
  const db = name === 'duckdb-appender' ? await DuckDBInstance.create(':memory:', threads ? { threads: String(threads) } : {}) : undefined;
  return {
    async open(options) {
      const dir = await mkdtemp(join(tempDir, `${name}-`));
      if (name === 'parquetjs-lite') return new ParquetJsLiteWriter(dir, options);
      if (name === 'hyparquet-writer') return new HyparquetWriter(dir, options);
      return new DuckDbAppenderWriter(dir, options, db as DuckDBInstance);
    },
    async close() {
      db?.closeSync();
    },
  };
}
