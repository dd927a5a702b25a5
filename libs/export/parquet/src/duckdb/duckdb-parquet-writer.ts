import { mkdtemp, rm, stat } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { toNdjsonRows } from '../ndjson-rows';
import type { NdjsonRows, ParquetFileOnDisk, ParquetFileOptions, ParquetFileWriter, ParquetWriterFactory } from '../parquet-file-writer';
import { parquetCodec } from '../parquet-format';
import type { ParquetRow } from '../parquet-column';
import { createStagingFolder, type StagingFolder } from '../staging-folders';
import { copyStatement } from './copy-statement';
import { NdjsonStage } from './ndjson-stage';

export interface DuckDbParquetOptions {
  /** Where staged rows, written files and DuckDB's spill files go; default the OS temp directory. */
  tempDir?: string;
  /** DuckDB worker threads shared by all files of the process; default the number of CPUs. */
  threads?: number;
  /** DuckDB's memory limit, e.g. `512MB`; beyond it DuckDB spills to `tempDir`. Default `1GB`. */
  memoryLimit?: string;
}

/**
 * Parquet through DuckDB (measured fastest here, see tools/bench/export/writers.ts): rows are staged on disk
 * as NDJSON (as they come when they arrive as NDJSON, else stringified by the JavaScript thread), then
 * `COPY ... TO (FORMAT parquet)` encodes them on DuckDB's own threads. The JavaScript thread stays free for reading and uploading, memory stays bounded by DuckDB's
 * limit whatever the file size, and every export codec (ZSTD included) is available.
 */
export function createDuckDbParquetWriterFactory(options: DuckDbParquetOptions = {}): ParquetWriterFactory {
  let started: Promise<{ db: DuckDBInstance; root: string; staging: StagingFolder }> | undefined;
  let closed = false;
  // Connections between files, reused: opening one took ~25 ms of the JavaScript thread per file (profiled).
  const idle: DuckDBConnection[] = [];
  const connections: ConnectionPool = {
    async take(db) {
      const reused = idle.pop();
      if (reused) return reused;
      const connection = await db.connect();
      await connection.run(`SET TimeZone = 'UTC'`);
      return connection;
    },
    give(connection) {
      if (closed) connection.closeSync();
      else idle.push(connection);
    },
  };

  // One directory per factory (so per process) holds every staged, written and spilled file; close removes it, and
  // after a kill -9 the next worker does (removeDeadStagingFolders).
  const start = () => {
    if (closed) throw new Error('Parquet writer factory is closed');
    started ??= (async () => {
      const staging = await createStagingFolder(options.tempDir ?? tmpdir());
      const root = staging.path;
      const db = await DuckDBInstance.create(':memory:', {
        threads: String(options.threads ?? availableParallelism()),
        memory_limit: options.memoryLimit ?? '1GB',
        temp_directory: join(root, 'spill'),
        // Nothing is ever downloaded: json and parquet are built in.
        autoinstall_known_extensions: 'false',
        autoload_known_extensions: 'false',
      });
      return { db, root, staging };
    })();
    return started;
  };

  return {
    async open(file: ParquetFileOptions): Promise<ParquetFileWriter> {
      const { db, root } = await start();
      const dir = await mkdtemp(join(root, 'file-'));
      const stage = await NdjsonStage.create(join(dir, 'rows.ndjson'));
      return new DuckDbParquetFileWriter(db, connections, file, dir, stage);
    },
    async close(): Promise<void> {
      closed = true;
      const running = await started?.catch(() => undefined);
      if (!running) return;
      for (const connection of idle.splice(0)) connection.closeSync();
      running.db.closeSync();
      await running.staging.remove();
    },
  };
}

/** Connections with the session settings the COPY needs (TimeZone UTC), one per file being encoded. */
interface ConnectionPool {
  take(db: DuckDBInstance): Promise<DuckDBConnection>;
  /** Back for the next file; a connection whose statement failed is closed instead. */
  give(connection: DuckDBConnection): void;
}

class DuckDbParquetFileWriter implements ParquetFileWriter {
  private finished = false;

  constructor(
    private readonly db: DuckDBInstance,
    private readonly connections: ConnectionPool,
    private readonly options: ParquetFileOptions,
    private readonly dir: string,
    private readonly stage: NdjsonStage,
  ) {}

  get rows(): number {
    return this.stage.rows;
  }

  get stagedBytes(): number {
    return this.stage.bytes;
  }

  append(rows: readonly ParquetRow[]): Promise<void> {
    return this.appendNdjson(toNdjsonRows(rows));
  }

  appendNdjson(rows: NdjsonRows): Promise<void> {
    if (this.finished) throw new Error('Parquet file is already finished');
    return this.stage.append(rows);
  }

  async finish(): Promise<ParquetFileOnDisk> {
    if (this.finished) throw new Error('Parquet file is already finished');
    this.finished = true;
    await this.stage.close();
    const path = join(this.dir, 'file.parquet');
    const sql = copyStatement({
      columns: this.options.columns,
      codec: parquetCodec(this.options.compression),
      stagePath: this.stage.path,
      outputPath: path,
      rows: this.stage.rows,
      bytes: this.stage.bytes,
      maxLineBytes: this.stage.maxLineBytes,
    });
    const connection = await this.connections.take(this.db);
    try {
      await connection.run(sql);
    } catch (err) {
      connection.closeSync();
      throw err;
    }
    this.connections.give(connection);
    // The staged rows are no longer needed; free the disk while the file is uploaded.
    await rm(this.stage.path, { force: true });
    return { path, bytes: (await stat(path)).size, rows: this.stage.rows };
  }

  async dispose(): Promise<void> {
    this.finished = true;
    await this.stage.close().catch(() => undefined);
    await rm(this.dir, { recursive: true, force: true });
  }
}
